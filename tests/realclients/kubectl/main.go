// Command kubectl is kubectl itself, built from the Kubernetes project's published
// k8s.io/kubectl module (its pkg/cmd is what the kubectl binary runs), for the real-client
// tests of serve-api.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubectl/pkg/cmd"
)

func main() {
	command := cmd.NewDefaultKubectlCommand()
	os.Exit(cli.Run(command))
}
