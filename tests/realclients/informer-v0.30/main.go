// Command informer-v0.30 runs the real-client harness with client-go v0.30.14.
package main

import "informer-playground/harness"

func main() { harness.Main() }
