package harness

// The cache traps, read through controller-runtime's cache (the release the module pins) and
// printed one JSON object a line ({"trap": …, "error": …}), to be compared with the texts the
// simulator's cache reader gives for the same reads:
//   missing-index      List Pods with MatchingFields{spec.nodeName} and no such index
//   not-found          Get a Pod the cache does not hold
//   cache-limit        the continue token of a cache List of Pods with Limit(1)
//   cache-continue     a cache List of Pods with a Continue token
//   not-started        Get a ConfigMap through a cache that was made and never started
//   unknown-namespace  Get / List outside a cache limited to "default"
//   not-synced         Get a ConfigMap through a cache whose user cannot LIST them
//   lazy-read          Get a Secret through a started cache with no informer: one starts
//   lazy-requests      the requests that read made, as "VERB resource" in order of first use,
//                      discovery left out
//                      (in the "error" field, for the same comparison)
//   not-cached         the same Get through a cache with ReaderFailOnMissingInformer
//   disable-for        the same Get twice through a client whose cache options DisableFor Secrets
//   disable-for-requests the requests those reads made
//   transform          two applied Pods (node-1, node-2) read through a cache whose ByObject
//                      has Field spec.nodeName=node-1 and a Transform dropping kubectl's
//                      last-applied-configuration: "annotation dropped" or "annotation kept"
//   transform-elsewhere the Pod on node-2 read through that cache
//   transform-requests the requests its informer made, with their fieldSelector
//   metadata-only      applied-1 read as PartialObjectMetadata through a started cache (a
//                      metadata informer starts): "annotation kept" or "annotation dropped"
//   metadata-requests  the requests that informer made, with the as= of their Accept header
//   start-timeout      a manager whose controller's cache cannot sync (CacheSyncTimeout)

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
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

// requestLog records each request's verb and resource as the API server would count them.
type requestLog struct {
	mu   sync.Mutex
	seen []string
	// detailed: each entry names its fieldSelector and the as= of its Accept header.
	detailed bool
}

func (l *requestLog) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripper(func(r *http.Request) (*http.Response, error) {
		if !strings.HasPrefix(r.URL.Path, "/api/v1/") && strings.Count(r.URL.Path, "/") < 4 {
			return next.RoundTrip(r) // discovery, not a resource
		}
		// After /api/v1 or /apis/<group>/<version>, an odd number of segments names a
		// collection (LIST or WATCH), an even one an object (GET).
		path := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, "/api/v1/"), "/apis/")
		if strings.HasPrefix(r.URL.Path, "/apis/") {
			path = strings.SplitN(path, "/", 3)[2]
		}
		parts := strings.Split(path, "/")
		verb := "GET"
		if r.URL.Query().Get("watch") == "true" {
			verb = "WATCH"
		} else if len(parts)%2 == 1 {
			verb = "LIST"
		}
		resource := parts[len(parts)-1]
		if verb == "GET" {
			resource = parts[len(parts)-2]
		}
		entry := verb + " " + resource
		if selector := r.URL.Query().Get("fieldSelector"); selector != "" && l.detailed {
			entry += "?fieldSelector=" + selector
		}
		if as := acceptAs(r.Header.Get("Accept")); as != "" && l.detailed {
			entry += " (as=" + as + ")"
		}
		l.mu.Lock()
		if !containsString(l.seen, entry) {
			l.seen = append(l.seen, entry)
		}
		l.mu.Unlock()
		return next.RoundTrip(r)
	})
}

func (l *requestLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.seen, ", ")
}

// recording is config with every request it makes recorded in the log returned.
func recording(config *rest.Config) (*requestLog, *rest.Config) {
	log := &requestLog{}
	recorded := rest.CopyConfig(config)
	recorded.Wrap(log.wrap)
	return log, recorded
}

// acceptAs is the as= parameter of an Accept header's first JSON choice.
func acceptAs(accept string) string {
	for _, choice := range strings.Split(accept, ",") {
		if strings.HasPrefix(strings.TrimSpace(choice), "application/vnd.kubernetes.protobuf") {
			continue
		}
		for _, param := range strings.Split(choice, ";") {
			if as, ok := strings.CutPrefix(strings.TrimSpace(param), "as="); ok {
				return as
			}
		}
		return ""
	}
	return ""
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func containsString(all []string, s string) bool {
	for _, a := range all {
		if a == s {
			return true
		}
	}
	return false
}

// lazyTraps reads a Secret through a cache that has no informer for Secrets: by default the
// read starts one and waits for it; with ReaderFailOnMissingInformer it is refused.
func lazyTraps(ctx context.Context, admin *rest.Config, scheme *runtime.Scheme) {
	log, recorded := recording(admin)
	lazy, err := startedCache(ctx, recorded, scheme)
	if err != nil {
		trap("setup", err)
		return
	}
	var secret corev1.Secret
	key := client.ObjectKey{Namespace: "default", Name: "no-such-secret"}
	trap("lazy-read", lazy.Get(ctx, key, &secret))
	emit(line{"trap": "lazy-requests", "error": log.String()})

	failFast, err := cache.New(admin, cache.Options{Scheme: scheme, ReaderFailOnMissingInformer: true})
	if err != nil {
		trap("setup", err)
		return
	}
	go func() { _ = failFast.Start(ctx) }()
	failFast.WaitForCacheSync(ctx)
	trap("not-cached", failFast.Get(ctx, key, &secret))

	uncachedLog, uncachedConfig := recording(admin)
	reader, err := startedCache(ctx, uncachedConfig, scheme)
	if err != nil {
		trap("setup", err)
		return
	}
	live, err := client.New(uncachedConfig, client.Options{Scheme: scheme, Cache: &client.CacheOptions{Reader: reader, DisableFor: []client.Object{&corev1.Secret{}}}})
	if err != nil {
		trap("setup", err)
		return
	}
	_ = live.Get(ctx, key, &secret)
	trap("disable-for", live.Get(ctx, key, &secret))
	emit(line{"trap": "disable-for-requests", "error": uncachedLog.String()})
}

// lastApplied is the annotation kubectl apply leaves.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// annotationTrap emits a read's error, or whether the object it read kept the last-applied
// annotation ("annotation kept" or "annotation dropped").
func annotationTrap(name string, err error, annotations map[string]string) {
	if err != nil {
		trap(name, err)
		return
	}
	if _, kept := annotations[lastApplied]; kept {
		emit(line{"trap": name, "error": "annotation kept"})
	} else {
		emit(line{"trap": name, "error": "annotation dropped"})
	}
}

// transformTraps creates two applied Pods and reads them through a cache scoped to node-1's
// Pods whose Transform drops the last-applied annotation.
func transformTraps(ctx context.Context, admin *rest.Config, scheme *runtime.Scheme) {
	writer, err := client.New(admin, client.Options{Scheme: scheme})
	if err != nil {
		trap("setup", err)
		return
	}
	for name, node := range map[string]string{"applied-1": "node-1", "applied-2": "node-2"} {
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, Annotations: map[string]string{lastApplied: "{}"}},
			Spec:       corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "main", Image: "nginx:1.27"}}},
		}
		if err := writer.Create(ctx, pod); err != nil {
			trap("setup", err)
			return
		}
	}
	drop := func(in interface{}) (interface{}, error) {
		if obj, err := metaOf(in); err == nil {
			annotations := obj.GetAnnotations()
			delete(annotations, lastApplied)
			obj.SetAnnotations(annotations)
		}
		return in, nil
	}
	log, recorded := recording(admin)
	log.detailed = true
	scoped, err := cache.New(recorded, cache.Options{Scheme: scheme, ByObject: map[client.Object]cache.ByObject{
		&corev1.Pod{}: {Field: fields.OneTermEqualSelector("spec.nodeName", "node-1"), Transform: toolscache.TransformFunc(drop)},
	}})
	if err != nil {
		trap("setup", err)
		return
	}
	go func() { _ = scoped.Start(ctx) }()
	scoped.WaitForCacheSync(ctx)
	var pod corev1.Pod
	err = scoped.Get(ctx, client.ObjectKey{Namespace: "default", Name: "applied-1"}, &pod)
	annotationTrap("transform", err, pod.Annotations)
	trap("transform-elsewhere", scoped.Get(ctx, client.ObjectKey{Namespace: "default", Name: "applied-2"}, &pod))
	emit(line{"trap": "transform-requests", "error": log.String()})

	metadataLog, metadataConfig := recording(admin)
	metadataLog.detailed = true
	metadata, err := startedCache(ctx, metadataConfig, scheme)
	if err != nil {
		trap("setup", err)
		return
	}
	var partial metav1.PartialObjectMetadata
	partial.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Pod"))
	err = metadata.Get(ctx, client.ObjectKey{Namespace: "default", Name: "applied-1"}, &partial)
	annotationTrap("metadata-only", err, partial.Annotations)
	emit(line{"trap": "metadata-requests", "error": metadataLog.String()})
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
	lazyTraps(ctx, admin, scheme)
	transformTraps(ctx, admin, scheme)
	var pod corev1.Pod
	trap("not-found", whole.Get(ctx, client.ObjectKey{Namespace: "default", Name: "no-such-pod"}, &pod))
	var pods corev1.PodList
	trap("missing-index", whole.List(ctx, &pods, client.MatchingFields{"spec.nodeName": "node-1"}))
	if err := whole.List(ctx, &pods, client.Limit(1)); err != nil {
		trap("cache-limit", err)
	} else {
		emit(line{"trap": "cache-limit", "error": "continue " + strconv.Quote(pods.Continue)})
	}
	trap("cache-continue", whole.List(ctx, &pods, client.Continue("the-next-page")))
	if unstarted, err := cache.New(admin, cache.Options{Scheme: scheme}); err != nil {
		trap("setup", err)
	} else {
		var settings corev1.ConfigMap
		trap("not-started", unstarted.Get(ctx, client.ObjectKey{Namespace: "default", Name: "settings"}, &settings))
	}

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
