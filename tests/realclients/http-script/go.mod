module informer-playground/http-script

go 1.26.0
