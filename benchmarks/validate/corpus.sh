#!/usr/bin/env bash
# corpus.sh MODE OBJECTS FILES DIR — writes a manifest tree for timing `juneau validate` (BENCHMARKS.md).
#   MODE configmaps: only ConfigMaps (kinds without Juneau rules: the reading, ordering and reporting costs alone)
#   MODE mix: per 10 objects 5 ConfigMaps, 2 managed LoadBalancer Services, 1 ClusterIP Service, 1 Deployment,
#             1 Secret; one bgp AddressPool (a /14) and its ExternalNetwork in the first file
# Objects are spread evenly over FILES files in DIR/dNN/ subdirectories (100 files each), as a repository would hold them.
set -euo pipefail
mode="$1"; objects="$2"; files="$3"; dir="$4"
per_file=$(( (objects + files - 1) / files ))
rm -rf "$dir"; mkdir -p "$dir"
awk -v mode="$mode" -v objects="$objects" -v files="$files" -v per="$per_file" -v dir="$dir" '
function emit(f, text) { printf "%s", text > f }
BEGIN {
  n = 0
  for (i = 0; i < files && n < objects; i++) {
    sub_dir = sprintf("%s/d%02d", dir, int(i / 100)); system("mkdir -p " sub_dir)
    f = sprintf("%s/f%04d.yaml", sub_dir, i)
    if (mode == "mix" && i == 0) {
      emit(f, "apiVersion: juneau.loutres.me/v1alpha1\nkind: AddressPool\nmetadata:\n  name: bench\nspec:\n  advertiseMode: bgp\n  addresses:\n    - 100.64.0.0/14\n---\n")
      emit(f, "apiVersion: juneau.loutres.me/v1alpha1\nkind: ExternalNetwork\nmetadata:\n  name: bench\nspec:\n  type: bgp\n  addressPools:\n    - bench\n---\n")
    }
    for (j = 0; j < per && n < objects; j++) {
      k = (mode == "mix") ? n % 10 : 0
      if (k < 5) {
        emit(f, sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-%d\n  namespace: team-%d\n  labels:\n    app: app-%d\ndata:\n  key: value-%d\n  other: |\n    line one\n    line two\n", n, n % 20, n, n))
      } else if (k < 7) {
        emit(f, sprintf("apiVersion: v1\nkind: Service\nmetadata:\n  name: lb-%d\n  namespace: team-%d\n  annotations:\n    juneau.loutres.me/load-balancer-external-network: bench\nspec:\n  type: LoadBalancer\n  loadBalancerClass: juneau.loutres.me/load-balancer\n  externalTrafficPolicy: Local\n  selector:\n    app: app-%d\n  ports:\n    - name: http\n      port: 80\n      targetPort: 8080\n      protocol: TCP\n", n, n % 20, n))
      } else if (k < 8) {
        emit(f, sprintf("apiVersion: v1\nkind: Service\nmetadata:\n  name: svc-%d\n  namespace: team-%d\nspec:\n  selector:\n    app: app-%d\n  ports:\n    - port: 80\n      targetPort: 8080\n", n, n % 20, n))
      } else if (k < 9) {
        emit(f, sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-%d\n  namespace: team-%d\nspec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: app-%d\n  template:\n    metadata:\n      labels:\n        app: app-%d\n    spec:\n      containers:\n        - name: app\n          image: example/app:1.0\n          ports:\n            - containerPort: 8080\n", n, n % 20, n, n))
      } else {
        emit(f, sprintf("apiVersion: v1\nkind: Secret\nmetadata:\n  name: s-%d\n  namespace: team-%d\ntype: Opaque\nstringData:\n  token: not-a-secret-%d\n", n, n % 20, n))
      }
      n++
      if (j + 1 < per && n < objects) emit(f, "---\n")
    }
    close(f)
  }
}'
