"""The deployment files are valid and self-consistent, checked offline.

- ``deploy/docker-compose.yml`` against the Compose Specification's JSON schema (the copy
  check-jsonschema ships), every file it builds from or mounts present, every file the
  Dockerfile copies present, and the commands it runs accepted by the real CLI parser.
- ``deploy/k8s/*.yaml``: Kubernetes' own kinds against the Kubernetes schemas
  (kubernetes-validate, strict: an unknown field fails), the KubeRay ``RayCluster`` and
  ``RayJob`` against the CRDs' OpenAPI schemas read from ``../shared/reference/kuberay-crds/``
  (never copied into the project), the pod templates they embed as strict ``PodTemplate``
  objects, the run specs of the ConfigMap through the real spec parser, the RayJobs'
  entrypoints through the real CLI parser, and every name one manifest gives another
  (claims, config maps, secrets, the head service, selectors) defined.
- The Prometheus configurations through ``promtool check config`` (Debian's prometheus).
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
K8S = DEPLOY / "k8s"
CRDS = REPO.parent / "shared" / "reference" / "kuberay-crds"
K8S_VERSION = "1.37.0"


def _compose() -> dict[str, Any]:
    return yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())


def _k8s_docs() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(K8S.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc:
                out.append((path.name, doc))
    return out


def _cli_accepts(argv: list[str]) -> None:
    """The project's own parser takes ``argv`` (``pokerarena ...``) without error."""
    from pokerarena.cli import build_parser

    assert argv[0] == "pokerarena", argv
    try:
        build_parser().parse_args(argv[1:])
    except SystemExit as exc:  # argparse reports a bad command line by exiting
        raise AssertionError(f"the CLI rejects {' '.join(argv)!r}") from exc


# --- docker compose -------------------------------------------------------------------

def test_compose_file_follows_the_compose_specification() -> None:
    import check_jsonschema

    schema_path = (Path(check_jsonschema.__file__).parent / "builtin_schemas" / "vendor"
                   / "compose-spec.json")
    schema = json.loads(schema_path.read_text())
    compose = _compose()
    jsonschema.validate(compose, schema)
    services = compose["services"]
    assert {"ray-head", "ray-worker", "api", "prometheus", "grafana"} <= set(services)
    # a broken document is refused by the same check (the check can fail)
    broken = json.loads(json.dumps(compose))
    broken["services"]["api"]["ports"] = {"8000": "8000"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


def test_compose_builds_and_mounts_only_files_that_exist() -> None:
    compose = _compose()
    checked = 0
    for name, svc in compose["services"].items():
        build = svc.get("build")
        if build:
            context = (DEPLOY / build["context"]).resolve()
            assert context.is_dir(), name
            assert (context / build["dockerfile"]).is_file(), name
            checked += 1
        for volume in svc.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith((".", "/")):
                assert (DEPLOY / source).exists(), f"{name} mounts missing {source}"
                checked += 1
            else:
                assert source in compose["volumes"], f"{name}: undeclared volume {source}"
    assert checked >= 4
    dashboards = DEPLOY / "../dashboards/grafana"
    assert sorted(p.name for p in dashboards.glob("*.json")), "no Grafana dashboards"


def test_dockerfile_copies_what_the_repository_has() -> None:
    lines = (DEPLOY / "Dockerfile").read_text().splitlines()
    copies = [line.split()[1:-1] for line in lines if line.startswith("COPY ")]
    assert copies
    for sources in copies:
        for src in sources:
            assert (REPO / src).exists(), f"the Dockerfile copies missing {src}"


def test_compose_commands_are_ones_the_cli_accepts() -> None:
    svc = _compose()["services"]["api"]
    _cli_accepts(shlex.split(svc["command"]))
    head = shlex.split(_compose()["services"]["ray-head"]["command"])
    assert head[:3] == ["ray", "start", "--head"] and "--block" in head


def test_grafana_provisioning_points_at_the_dashboards() -> None:
    compose = _compose()
    mounts = dict(v.split(":")[:2] for v in compose["services"]["grafana"]["volumes"])
    provider = yaml.safe_load(
        (DEPLOY / "grafana/provisioning/dashboards/pokerarena.yml").read_text())
    path = provider["providers"][0]["options"]["path"]
    assert path in mounts.values(), "the dashboards provider reads a folder nobody mounts"
    source = next(k for k, v in mounts.items() if v == path)
    for board in (DEPLOY / source).glob("*.json"):
        data = json.loads(board.read_text())
        assert data["templating"]["list"][0]["query"] == "prometheus", board.name
    ds = yaml.safe_load(
        (DEPLOY / "grafana/provisioning/datasources/prometheus.yml").read_text())
    url = ds["datasources"][0]["url"]
    assert url.split("//")[1].split(":")[0] in compose["services"]


@pytest.mark.parametrize("config", ["prometheus.yml", "prometheus-compose.yml"])
def test_prometheus_configurations_pass_promtool(config: str) -> None:
    promtool = shutil.which("promtool")
    assert promtool, "promtool (Debian's prometheus package) is missing: make system-deps"
    out = subprocess.run([promtool, "check", "config", str(DEPLOY / config)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


def test_prometheus_in_kubernetes_passes_promtool(tmp_path: Path) -> None:
    promtool = shutil.which("promtool")
    assert promtool, "promtool (Debian's prometheus package) is missing: make system-deps"
    cm = next(d for _, d in _k8s_docs() if d["metadata"]["name"] == "pokerarena-prometheus")
    path = tmp_path / "prometheus.yml"
    path.write_text(cm["data"]["prometheus.yml"])
    out = subprocess.run([promtool, "check", "config", str(path)], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


# --- kubernetes -----------------------------------------------------------------------

def _crd_schema(kind: str) -> dict[str, Any]:
    path = CRDS / f"ray.io_{kind.lower()}s.yaml"
    if not path.is_file():
        pytest.skip(f"the KubeRay CRDs are not beside the project ({path})")
    crd = yaml.safe_load(path.read_text())
    version = next(v for v in crd["spec"]["versions"] if v["name"] == "v1")
    return version["schema"]["openAPIV3Schema"]


def _pod_templates(doc: dict[str, Any]) -> list[dict[str, Any]]:
    spec = doc["spec"]
    if doc["kind"] == "RayCluster":
        return [spec["headGroupSpec"]["template"],
                *(g["template"] for g in spec.get("workerGroupSpecs", []))]
    if doc["kind"] == "RayJob" and "rayClusterSpec" in spec:
        return _pod_templates({"kind": "RayCluster", "spec": spec["rayClusterSpec"]})
    return []


def test_kubernetes_manifests_follow_their_schemas() -> None:
    import kubernetes_validate

    docs = _k8s_docs()
    kinds = {d["kind"] for _, d in docs}
    assert {"RayCluster", "RayJob", "Deployment", "Service", "ConfigMap",
            "PersistentVolumeClaim"} <= kinds
    for name, doc in docs:
        if doc["apiVersion"].startswith("ray.io/"):
            jsonschema.validate(doc, _crd_schema(doc["kind"]))
            for template in _pod_templates(doc):
                kubernetes_validate.validate(
                    {"apiVersion": "v1", "kind": "PodTemplate",
                     "metadata": {"name": f"{doc['metadata']['name']}-pod"},
                     "template": template}, K8S_VERSION, strict=True)
        else:
            kubernetes_validate.validate(doc, K8S_VERSION, strict=True)
        assert doc["metadata"]["labels"]["app.kubernetes.io/name"] == "pokerarena", name


def test_the_schema_checks_can_fail() -> None:
    import kubernetes_validate

    cluster = next(d for _, d in _k8s_docs() if d["kind"] == "RayCluster")
    bad = json.loads(json.dumps(cluster))
    bad["spec"]["workerGroupSpecs"][0]["maxReplicas"] = "many"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, _crd_schema("RayCluster"))
    deployment = next(d for _, d in _k8s_docs() if d["kind"] == "Deployment")
    bad = json.loads(json.dumps(deployment))
    bad["spec"]["template"]["spec"]["containers"][0]["comand"] = ["x"]
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, K8S_VERSION, strict=True)


def test_the_cluster_autoscales_and_every_pod_mounts_the_results() -> None:
    cluster = next(d for _, d in _k8s_docs() if d["kind"] == "RayCluster")
    assert cluster["spec"]["enableInTreeAutoscaling"] is True
    group = cluster["spec"]["workerGroupSpecs"][0]
    assert group["minReplicas"] < group["maxReplicas"]
    for template in _pod_templates(cluster):
        mounts = {m["mountPath"] for c in template["spec"]["containers"]
                  for m in c.get("volumeMounts", [])}
        assert "/data" in mounts


def test_names_that_manifests_give_each_other_are_defined() -> None:
    docs = [d for _, d in _k8s_docs()]
    defined = {(d["kind"], d["metadata"]["name"]) for d in docs}
    cluster = next(d for d in docs if d["kind"] == "RayCluster")
    pods = [d["spec"]["template"] for d in docs if d["kind"] == "Deployment"]
    pods += _pod_templates(cluster)
    for pod in pods:
        for volume in pod["spec"].get("volumes", []):
            if "persistentVolumeClaim" in volume:
                claim = volume["persistentVolumeClaim"]["claimName"]
                assert ("PersistentVolumeClaim", claim) in defined, claim
            if "configMap" in volume:
                assert ("ConfigMap", volume["configMap"]["name"]) in defined
    for job in (d for d in docs if d["kind"] == "RayJob"):
        assert job["spec"]["clusterSelector"]["ray.io/cluster"] == \
            cluster["metadata"]["name"]
    api = next(d for d in docs if d["kind"] == "Deployment")
    command = api["spec"]["template"]["spec"]["containers"][0]["command"]
    _cli_accepts(command)
    address = command[command.index("--address") + 1]
    # KubeRay names the head's service <cluster>-head-svc
    assert address.split(":")[0] == f"{cluster['metadata']['name']}-head-svc"
    service = next(d for d in docs if d["kind"] == "Service"
                   and d["metadata"]["name"] == "pokerarena-api")
    labels = api["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()
    workers = next(d for d in docs if d["kind"] == "Service"
                   and d["metadata"]["name"] == "pokerarena-ray-workers")
    worker_labels = cluster["spec"]["workerGroupSpecs"][0]["template"]["metadata"]["labels"]
    assert workers["spec"]["selector"].items() <= worker_labels.items()
    scrape = yaml.safe_load(next(d for d in docs if d["kind"] == "ConfigMap" and d[
        "metadata"]["name"] == "pokerarena-prometheus")["data"]["prometheus.yml"])
    targets = [t.split(":")[0] for job in scrape["scrape_configs"]
               for c in job.get("static_configs", []) for t in c["targets"]]
    targets += [n for job in scrape["scrape_configs"]
                for c in job.get("dns_sd_configs", []) for n in c["names"]]
    services = {d["metadata"]["name"] for d in docs if d["kind"] == "Service"}
    for host in targets:
        assert host in services | {address.split(":")[0]}, host


def test_rayjobs_run_specs_and_commands_that_work() -> None:
    from pokerarena.platform.spec import parse_spec

    docs = [d for _, d in _k8s_docs()]
    specs = next(d for d in docs if d["kind"] == "ConfigMap"
                 and d["metadata"]["name"] == "pokerarena-specs")["data"]
    for text in specs.values():
        parse_spec(tomllib.loads(text))  # raises SpecError on a bad spec
    jobs = [d for d in docs if d["kind"] == "RayJob"]
    assert len(jobs) >= 2
    for job in jobs:
        for step in job["spec"]["entrypoint"].split("&&"):
            argv = shlex.split(step)
            _cli_accepts(argv)
            for arg in argv:
                if arg.startswith("/specs/"):
                    assert arg.removeprefix("/specs/") in specs, arg
