// Package harness is the real client-go (and controller-runtime) side of the real-client
// tests: built once per Kubernetes release judged (informer-v0.30, -v0.33, -v0.37 each pin
// their client-go), it runs a shared informer from a typed informer factory against
// serve-api and prints, one JSON object a line, every notification its handler gets and, at
// the end, its cache. The reflector's own log lines go to standard error (klog, -v=4), to be
// compared with the simulator's. With -traps it reads through controller-runtime's cache
// instead (traps.go).
package harness

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"sync"
	"syscall"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
)

type line map[string]interface{}

var out = json.NewEncoder(os.Stdout)
var mu sync.Mutex

func emit(l line) {
	mu.Lock()
	defer mu.Unlock()
	_ = out.Encode(l)
}

func meta(obj interface{}) (string, string, bool) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		if m, err := metaOf(t.Obj); err == nil {
			return t.Key, m.GetResourceVersion(), true
		}
		return t.Key, "", true
	}
	m, err := metaOf(obj)
	if err != nil {
		return "", "", false
	}
	return m.GetNamespace() + "/" + m.GetName(), m.GetResourceVersion(), false
}

func metaOf(obj interface{}) (metav1.Object, error) {
	if m, ok := obj.(metav1.Object); ok {
		return m, nil
	}
	return nil, fmt.Errorf("not an object: %T", obj)
}

// Main runs the informer named by the flags and exits when told to stop (SIGTERM, or
// standard input closing) or after -seconds.
// restConfig reads a context of serve-api's kubeconfig; clients ask for JSON.
func restConfig(kubeconfig, context string) *rest.Config {
	config, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		&clientcmd.ClientConfigLoadingRules{ExplicitPath: kubeconfig},
		&clientcmd.ConfigOverrides{CurrentContext: context}).ClientConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	config.ContentType = "application/json"
	return config
}

func Main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of serve-api")
	contextName := flag.String("context", "", "kubeconfig context")
	resource := flag.String("resource", "configmaps", "pods, configmaps, deployments, replicasets")
	namespace := flag.String("namespace", "", "one namespace (all when empty)")
	labels := flag.String("selector", "", "label selector")
	seconds := flag.Int("seconds", 10, "how long to run at least")
	afterSync := flag.Int("after-sync", 2, "how long to run at least once synced")
	most := flag.Int("most", 120, "how long to run at most")
	resync := flag.Duration("resync", 0, "default resync period")
	traps := flag.String("traps", "", "run controller-runtime's cache traps instead, with this context as the restricted user")
	klog.InitFlags(nil)
	flag.Parse()
	start := time.Now()
	config := restConfig(*kubeconfig, *contextName)
	if *traps != "" {
		runTraps(config, restConfig(*kubeconfig, *traps), time.Duration(*seconds)*time.Second)
		return
	}
	client := kubernetes.NewForConfigOrDie(config)
	options := []informers.SharedInformerOption{}
	if *namespace != "" {
		options = append(options, informers.WithNamespace(*namespace))
	}
	if *labels != "" {
		options = append(options, informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = *labels }))
	}
	factory := informers.NewSharedInformerFactoryWithOptions(client, *resync, options...)
	var informer cache.SharedIndexInformer
	switch *resource {
	case "pods":
		informer = factory.Core().V1().Pods().Informer()
	case "configmaps":
		informer = factory.Core().V1().ConfigMaps().Informer()
	case "deployments":
		informer = factory.Apps().V1().Deployments().Informer()
	case "replicasets":
		informer = factory.Apps().V1().ReplicaSets().Informer()
	default:
		fmt.Fprintln(os.Stderr, "unknown resource", *resource)
		os.Exit(2)
	}
	since := func() int64 { return time.Since(start).Milliseconds() }
	_, err := informer.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj interface{}, isInInitialList bool) {
			key, rv, _ := meta(obj)
			emit(line{"t": since(), "call": "OnAdd", "key": key, "rv": rv, "initial": isInInitialList})
		},
		UpdateFunc: func(old, obj interface{}) {
			key, rv, _ := meta(obj)
			_, oldRV, _ := meta(old)
			emit(line{"t": since(), "call": "OnUpdate", "key": key, "rv": rv, "old_rv": oldRV})
		},
		DeleteFunc: func(obj interface{}) {
			key, rv, tombstone := meta(obj)
			emit(line{"t": since(), "call": "OnDelete", "key": key, "rv": rv, "tombstone": tombstone})
		},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, os.Interrupt)
	// It stops -seconds after start, but not before -after-sync seconds once synced (a large
	// list on a busy machine takes a while), and in any case after -most.
	syncedAt := make(chan time.Time, 1)
	go func() {
		deadline := time.After(time.Duration(*most) * time.Second)
		select {
		case <-stop:
		case <-deadline:
		case <-time.After(time.Duration(*seconds) * time.Second):
			select {
			case at := <-syncedAt:
				time.Sleep(time.Until(at.Add(time.Duration(*afterSync) * time.Second)))
			case <-stop:
			case <-deadline:
			}
		}
		cancel()
	}()
	factory.Start(ctx.Done())
	synced := cache.WaitForCacheSync(ctx.Done(), informer.HasSynced)
	if synced {
		syncedAt <- time.Now()
	}
	emit(line{"t": since(), "synced": synced})
	<-ctx.Done()
	factory.Shutdown()
	var objects []line
	for _, obj := range informer.GetStore().List() {
		key, rv, _ := meta(obj)
		objects = append(objects, line{"key": key, "rv": rv})
	}
	sort.Slice(objects, func(i, j int) bool { return objects[i]["key"].(string) < objects[j]["key"].(string) })
	emit(line{"t": since(), "cache": objects})
}
