// Command informer-v0.33 runs the real-client harness with client-go v0.33.13.
package main

import "informer-playground/harness"

func main() { harness.Main() }
