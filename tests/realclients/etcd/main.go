// Command etcd is a current etcd server, built from its release module, for the differential
// test of the playground's revisioned store (tests/etcd_differential.rs). It takes etcd's own
// flags: this is etcd's main, nothing more.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
