// Command informer-v0.37 runs the real-client harness with client-go v0.37.2.
package main

import "informer-playground/harness"

func main() { harness.Main() }
