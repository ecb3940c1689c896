// The starter controller: a small controller-runtime controller (v0.25, Kubernetes 1.37's
// release) to run against serve-api and watch on the playground's stage. It counts each
// ConfigMap's data keys into an annotation, writing only when the count changed, and logs
// every reconcile. Change it to fall into the traps the lessons teach and see it on its lane.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// The annotation the controller keeps: how many data keys the ConfigMap has.
const keysAnnotation = "playground.example/keys"

type counter struct {
	client.Client
}

func (c counter) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := c.Get(ctx, req.NamespacedName, &cm); err != nil {
		if apierrors.IsNotFound(err) {
			fmt.Printf("reconcile %s: gone\n", req.NamespacedName)
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, err
	}
	keys := strconv.Itoa(len(cm.Data))
	if cm.Annotations[keysAnnotation] == keys {
		fmt.Printf("reconcile %s: %s keys, nothing to write (resourceVersion %s)\n", req.NamespacedName, keys, cm.ResourceVersion)
		return ctrl.Result{}, nil
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[keysAnnotation] = keys
	if err := c.Update(ctx, &cm); err != nil {
		fmt.Printf("reconcile %s: update refused: %v\n", req.NamespacedName, err)
		return ctrl.Result{}, err
	}
	fmt.Printf("reconcile %s: wrote %s keys (resourceVersion %s)\n", req.NamespacedName, keys, cm.ResourceVersion)
	return ctrl.Result{}, nil
}

func main() {
	namespace := flag.String("namespace", "default", "the namespace whose ConfigMaps the controller reconciles")
	flag.Parse() // --kubeconfig and --context are controller-runtime's own flags.
	config, err := ctrl.GetConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, "no kubeconfig:", err)
		os.Exit(2)
	}
	config.UserAgent = "starter-controller"
	// serve-api reads request bodies in JSON (a real kube-apiserver takes protobuf too).
	config.ContentType = "application/json"
	mgr, err := ctrl.NewManager(config, ctrl.Options{
		Cache:                  cache.Options{DefaultNamespaces: map[string]cache.Config{*namespace: {}}},
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot make the manager:", err)
		os.Exit(1)
	}
	err = ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("starter").Complete(counter{mgr.GetClient()})
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot make the controller:", err)
		os.Exit(1)
	}
	fmt.Printf("starter-controller: reconciling ConfigMaps in %s\n", *namespace)
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		fmt.Fprintln(os.Stderr, "stopped:", err)
		os.Exit(1)
	}
}
