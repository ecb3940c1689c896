// Command pipeline-bench times real client-go (v0.37) doing in memory what the simulator's
// list_50k bench does: a LIST's 50,000 Pods handed to a DeltaFIFO with Replace, then every
// key popped into an indexer (with the namespace index), as a shared informer's
// HandleDeltas would. No API server, no network: the client side only. `make bench` prints
// its figures beside the simulator's.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

func pod(i int) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:       fmt.Sprintf("ns-%d", i%50),
			Name:            fmt.Sprintf("pod-%05d", i),
			Labels:          map[string]string{"app": fmt.Sprintf("app-%d", i%100)},
			ResourceVersion: fmt.Sprint(i + 2),
		},
		Spec: corev1.PodSpec{NodeName: fmt.Sprintf("node-%d", i%500), Containers: []corev1.Container{{Name: "main", Image: "nginx:1.27"}}},
	}
}

func main() {
	n := flag.Int("pods", 50000, "how many Pods")
	asJSON := flag.Bool("json", false, "print the figures as one JSON object")
	flag.Parse()
	list := make([]interface{}, *n)
	for i := range list {
		list[i] = pod(i)
	}
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	fifo := cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{KeyFunction: cache.MetaNamespaceKeyFunc, KnownObjects: indexer, EmitDeltaTypeReplaced: true})

	start := time.Now()
	if err := fifo.Replace(list, fmt.Sprint(*n+1)); err != nil {
		panic(err)
	}
	replace := time.Since(start)

	start = time.Now()
	for popped := 0; popped < *n; popped++ {
		_, err := fifo.Pop(func(obj interface{}, isInInitialList bool) error {
			for _, d := range obj.(cache.Deltas) {
				if _, exists, _ := indexer.Get(d.Object); exists {
					if err := indexer.Update(d.Object); err != nil {
						return err
					}
				} else if err := indexer.Add(d.Object); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			panic(err)
		}
	}
	pop := time.Since(start)
	if *asJSON {
		_ = json.NewEncoder(os.Stdout).Encode(map[string]float64{"pods": float64(*n), "replace_ms": float64(replace.Microseconds()) / 1e3, "pop_ms": float64(pop.Microseconds()) / 1e3})
		return
	}
	fmt.Printf("client-go v0.37 in memory: %d Pods\n", *n)
	fmt.Printf("  DeltaFIFO.Replace                      %9.1f ms\n", float64(replace.Microseconds())/1e3)
	fmt.Printf("  Pop → indexer for all %d            %9.1f ms  (%.2f µs/Pop)\n", *n, float64(pop.Microseconds())/1e3, float64(pop.Microseconds())/float64(*n))
	fmt.Printf("  indexer objects: %d\n", len(indexer.List()))
}
