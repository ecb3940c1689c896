package harness

// The cache traps, read through controller-runtime's cache (the release the module pins) and
// printed one JSON object a line ({"trap": …, "error": …}), to be compared with the texts the
// simulator's cache reader gives for the same reads:
//   missing-index      List Pods with MatchingFields{spec.nodeName} and no such index
//   not-found          Get a Pod the cache does not hold
//   unknown-namespace  Get / List outside a cache limited to "default"
//   not-synced         Get a ConfigMap through a cache whose user cannot LIST them
//   start-timeout      a manager whose controller's cache cannot sync (CacheSyncTimeout)

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func trap(name string, err error) {
	text := ""
	if err != nil {
		text = err.Error()
	}
	emit(line{"trap": name, "error": text})
}

func startedCache(ctx context.Context, config *rest.Config, scheme *runtime.Scheme, namespaces ...string) (cache.Cache, error) {
	options := cache.Options{Scheme: scheme}
	if len(namespaces) > 0 {
		options.DefaultNamespaces = map[string]cache.Config{}
		for _, ns := range namespaces {
			options.DefaultNamespaces[ns] = cache.Config{}
		}
	}
	c, err := cache.New(config, options)
	if err != nil {
		return nil, err
	}
	go func() { _ = c.Start(ctx) }()
	// Until the cache has started (with no informer yet, that is all it waits for).
	c.WaitForCacheSync(ctx)
	return c, nil
}

func runTraps(admin, restricted *rest.Config, wait time.Duration) {
	scheme := runtime.NewScheme()
	_ = clientgoscheme.AddToScheme(scheme)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	whole, err := startedCache(ctx, admin, scheme)
	if err != nil {
		trap("setup", err)
		return
	}
	var pod corev1.Pod
	trap("not-found", whole.Get(ctx, client.ObjectKey{Namespace: "default", Name: "no-such-pod"}, &pod))
	var pods corev1.PodList
	trap("missing-index", whole.List(ctx, &pods, client.MatchingFields{"spec.nodeName": "node-1"}))

	scoped, err := startedCache(ctx, admin, scheme, "default")
	if err != nil {
		trap("setup", err)
		return
	}
	trap("unknown-namespace-get", scoped.Get(ctx, client.ObjectKey{Namespace: "other", Name: "x"}, &pod))
	trap("unknown-namespace-list", scoped.List(ctx, &pods, client.InNamespace("other")))

	limited, err := startedCache(ctx, restricted, scheme)
	if err != nil {
		trap("setup", err)
		return
	}
	read, cancelRead := context.WithTimeout(ctx, wait)
	var cm corev1.ConfigMap
	trap("not-synced", limited.Get(read, client.ObjectKey{Namespace: "default", Name: "no-such-configmap"}, &cm))
	cancelRead()

	mgr, err := manager.New(restricted, manager.Options{Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		trap("setup", err)
		return
	}
	err = builder.ControllerManagedBy(mgr).
		For(&corev1.ConfigMap{}).
		Named("configmaps").
		WithOptions(controller.Options{CacheSyncTimeout: wait}).
		Complete(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			return reconcile.Result{}, nil
		}))
	if err != nil {
		trap("setup", err)
		return
	}
	run, cancelRun := context.WithTimeout(ctx, 4*wait)
	defer cancelRun()
	trap("start-timeout", mgr.Start(run))
}
