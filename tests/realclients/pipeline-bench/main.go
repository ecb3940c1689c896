// Command pipeline-bench times real client-go (v0.37) doing in memory what the simulator's
// list_50k bench does: a LIST's 50,000 Pods handed to a DeltaFIFO with Replace, then every
// key popped into an indexer (with the namespace index), as a shared informer's
// HandleDeltas would. No API server, no network: the client side only. `make bench` prints
// its figures beside the simulator's. The work is done -runs times on fresh structures; the
// first run is reported apart and the median of the others compared, as the simulator's is.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
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

// run does the work once on a fresh list, DeltaFIFO and indexer, and returns how long Replace
// and the Pops took and how many objects the indexer holds.
func run(n int) (replace, pop time.Duration, indexed int) {
	list := make([]interface{}, n)
	for i := range list {
		list[i] = pod(i)
	}
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	fifo := cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{KeyFunction: cache.MetaNamespaceKeyFunc, KnownObjects: indexer, EmitDeltaTypeReplaced: true})
	runtime.GC() // the garbage of the runs before is not this run's

	start := time.Now()
	if err := fifo.Replace(list, fmt.Sprint(n+1)); err != nil {
		panic(err)
	}
	replace = time.Since(start)

	start = time.Now()
	for popped := 0; popped < n; popped++ {
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
	return replace, time.Since(start), len(indexer.List())
}

// ms is a duration in milliseconds, to the microsecond.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }

// median of the durations, in milliseconds.
func median(ds []time.Duration) float64 {
	sorted := append([]time.Duration(nil), ds...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	mid := len(sorted) / 2
	if len(sorted)%2 == 1 {
		return ms(sorted[mid])
	}
	return (ms(sorted[mid-1]) + ms(sorted[mid])) / 2
}

func main() {
	n := flag.Int("pods", 50000, "how many Pods")
	runs := flag.Int("runs", 6, "how many runs: the first is reported apart, the others by their median")
	asJSON := flag.Bool("json", false, "print the figures as one JSON object")
	flag.Parse()
	if *runs < 2 {
		fmt.Fprintln(os.Stderr, "-runs: at least 2 (a first run and one to compare)")
		os.Exit(2)
	}
	firstReplace, firstPop, indexed := run(*n)
	var replaces, pops []time.Duration
	for i := 1; i < *runs; i++ {
		replace, pop, _ := run(*n)
		replaces, pops = append(replaces, replace), append(pops, pop)
	}
	replace, pop := median(replaces), median(pops)
	if *asJSON {
		_ = json.NewEncoder(os.Stdout).Encode(map[string]float64{
			"pods": float64(*n), "runs": float64(*runs), "replace_ms": replace, "pop_ms": pop,
			"first_replace_ms": ms(firstReplace), "first_pop_ms": ms(firstPop),
		})
		return
	}
	fmt.Printf("client-go v0.37 in memory: %d Pods, median of %d runs after a first one\n", *n, *runs-1)
	fmt.Printf("  DeltaFIFO.Replace                      %9.1f ms\n", replace)
	fmt.Printf("  Pop → indexer for all %d            %9.1f ms  (%.2f µs/Pop)\n", *n, pop, pop*1e3/float64(*n))
	fmt.Printf("  the first run: Replace %.1f ms, Pop → indexer %.1f ms\n", ms(firstReplace), ms(firstPop))
	fmt.Printf("  indexer objects: %d\n", indexed)
}
