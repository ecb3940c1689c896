"""The official Python Kubernetes client against serve-api (the real-client judge).

List ConfigMaps, then watch from the list's resourceVersion; resume after the connection is
dropped (the disconnect fault) from the last resourceVersion seen; after an API server restart
behind a write elsewhere, the resumed watch gets 410 Expired and the client relists. Prints one
JSON object with what it saw; the judge (tests/realclients/judge.rs) checks it.
"""

import json
import sys

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

NS = "default"


def main(kubeconfig):
    config.load_kube_config(config_file=kubeconfig)
    api = client.CoreV1Api()
    raw = client.ApiClient()

    def fault(name):
        c = raw.configuration
        headers = {"Authorization": c.api_key["BearerToken"], "Content-Type": "application/json"}
        raw.rest_client.request("POST", c.host + "/playground/faults", headers=headers, body={"fault": name})

    def cm(name):
        api.create_namespaced_config_map(NS, client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name), data={"k": "v"}))

    out = {}
    cm("a")
    cm("b")
    listed = api.list_namespaced_config_map(NS)
    rv = listed.metadata.resource_version
    out["listed"] = sorted(i.metadata.name for i in listed.items)
    cm("c")
    seen = []
    w = watch.Watch()
    for event in w.stream(api.list_namespaced_config_map, NS, resource_version=rv, timeout_seconds=1,
                          allow_watch_bookmarks=True):
        if event["type"] == "BOOKMARK":
            continue
        seen.append([event["type"], event["object"].metadata.name])
        rv = event["object"].metadata.resource_version
        if len(seen) == 1:
            # The connection drops while the stream is open; a write happens meanwhile.
            fault("disconnect-watch")
            cm("d")
    out["watched"] = seen
    resumed = []
    for event in watch.Watch().stream(api.list_namespaced_config_map, NS, resource_version=rv, timeout_seconds=1):
        resumed.append([event["type"], event["object"].metadata.name])
        rv = event["object"].metadata.resource_version
    out["resumed"] = resumed
    # A write elsewhere moves the revision past rv; the restarted watch cache starts there.
    client.CoreV1Api().create_namespaced_pod(NS, client.V1Pod(
        metadata=client.V1ObjectMeta(name="p"),
        spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="busybox")])))
    fault("restart-api-server")
    try:
        for event in watch.Watch().stream(api.list_namespaced_config_map, NS, resource_version=rv, timeout_seconds=1):
            pass
        out["expired"] = None
    except ApiException as e:
        out["expired"] = e.status
        out["expired_reason"] = e.reason
    relisted = api.list_namespaced_config_map(NS)
    out["relisted"] = sorted(i.metadata.name for i in relisted.items)
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
