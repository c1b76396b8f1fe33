"""Deployment checks without a cluster or a Docker engine (`make deploy-check`).

* kustomize (the one built into kubectl) renders both overlays;
* every rendered object validates against the Kubernetes 1.35 schemas (kubernetes-validate,
  strict: an unknown field fails);
* checkov finds nothing in the rendered overlays and the Dockerfile, after the skips in
  deploy/checkov.yaml and the manifests' annotations, each with its reason;
* docker-compose.yml validates against the Compose specification (check-jsonschema's copy);
* and the project's own rules: hardening of every workload, probes and graceful shutdown,
  the Ingress routes of the public API, who may reach whom, placeholder-only Secrets.

The tools live in their own virtualenv (deploy/install-tools.sh, default .venv/deploy).
`make deploy-check` sets TAPETE_DEPLOY_TOOLS, and then a missing tool fails; elsewhere (plain
`make test`) the checks that need a tool are skipped when it is not installed.
"""

from __future__ import annotations

import os
import re
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
OVERLAYS = ("dev", "prod", "cluster")
NAMESPACE = "tapete"
KUBERNETES_VERSION = "1.35.0"
PLACEHOLDER = "REPLACE-ME"
HTTP_SERVICES = {"lobby": 8000, "rules": 8001, "history": 8002}
# The processes without an HTTP port serve Prometheus' /metrics on a port of their own.
METRICS_PORTS = {
    "history-consumer": ("HISTORY_CONSUMER_METRICS_PORT", 9102),
    "dispatcher": ("BOTS_DISPATCHER_METRICS_PORT", 9103),
    "worker": ("BOTS_WORKER_METRICS_PORT", 9104),
}
WORKLOAD_KINDS = ("Deployment", "StatefulSet")
CLUSTER_WIDE_KINDS = ("Namespace",)


# -- tools ---------------------------------------------------------------------------------
def tool(name: str) -> str:
    required = os.environ.get("TAPETE_DEPLOY_TOOLS")
    path = Path(required or ROOT / ".venv" / "deploy" / "bin") / name
    if path.exists():
        return str(path)
    if required:
        pytest.fail(f"{name} is not in {required}: run deploy/install-tools.sh")
    pytest.skip(f"{name} is not installed: `make deploy-check` installs the deployment tools")


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


@cache
def _render(overlay: str) -> str:
    done = run(tool("kubectl"), "kustomize", str(ROOT / "k8s" / "overlays" / overlay))
    assert done.returncode == 0, f"kustomize failed on {overlay}:\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module", params=OVERLAYS)
def overlay(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="module")
def objects(overlay: str) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(_render(overlay)) if doc]


@pytest.fixture(scope="module")
def rendered_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("rendered")
    files = []
    for name in OVERLAYS:
        path = folder / f"{name}.yaml"
        path.write_text(_render(name))
        files.append(path)
    return files


def find(objects: list[dict], kind: str, name: str | None = None) -> list[dict]:
    return [o for o in objects if o["kind"] == kind and name in (None, o["metadata"]["name"])]


def one(objects: list[dict], kind: str, name: str) -> dict:
    found = find(objects, kind, name)
    assert len(found) == 1, f"expected one {kind} {name}, found {len(found)}"
    return found[0]


def containers(workload: dict) -> list[dict]:
    return workload["spec"]["template"]["spec"]["containers"]


# -- the external tools --------------------------------------------------------------------
def test_both_overlays_render_the_whole_platform(objects: list[dict], overlay: str) -> None:
    names = {o["metadata"]["name"] for o in objects if o["kind"] in WORKLOAD_KINDS}
    expected = {"rules", "lobby", "feed", "history", "history-consumer", "dispatcher", "worker"}
    expected |= {"web"}
    assert names == expected | ({"redis"} if overlay == "dev" else set())
    for kind in ("ConfigMap", "Ingress", "NetworkPolicy", "PodDisruptionBudget"):
        assert find(objects, kind), f"{overlay} renders no {kind}"


def test_every_object_validates_against_the_kubernetes_schemas(rendered_files: list[Path]) -> None:
    example = ROOT / "k8s" / "overlays" / "prod" / "secret.example.yaml"
    validate = [tool("kubernetes-validate"), "--strict", "--quiet", "-k", KUBERNETES_VERSION]
    done = run(*validate, *map(str, rendered_files), str(example))
    assert done.returncode == 0, done.stdout + done.stderr


def test_checkov_finds_nothing(rendered_files: list[Path]) -> None:
    files = [arg for path in [*rendered_files, ROOT / "Dockerfile"] for arg in ("-f", str(path))]
    done = run(tool("checkov"), "--config-file", str(ROOT / "deploy" / "checkov.yaml"), *files)
    assert done.returncode == 0, f"checkov failed checks:\n{done.stdout}\n{done.stderr}"
    assert "Failed checks: 0" in done.stdout


def test_compose_file_follows_the_compose_specification() -> None:
    check = [tool("check-jsonschema"), "--builtin-schema", "vendor.compose-spec"]
    done = run(*check, str(ROOT / "docker-compose.yml"))
    assert done.returncode == 0, done.stdout + done.stderr


# -- workloads -----------------------------------------------------------------------------
def test_every_workload_runs_hardened(objects: list[dict]) -> None:
    for workload in [o for o in objects if o["kind"] in WORKLOAD_KINDS]:
        name, pod = workload["metadata"]["name"], workload["spec"]["template"]["spec"]
        assert pod["automountServiceAccountToken"] is False, name
        assert pod["securityContext"]["runAsNonRoot"] is True, name
        assert pod["securityContext"]["runAsUser"] >= 10000, name
        assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}, name
        for container in containers(workload):
            context = container["securityContext"]
            assert context["readOnlyRootFilesystem"] is True, name
            assert context["allowPrivilegeEscalation"] is False, name
            assert context["capabilities"] == {"drop": ["ALL"]}, name
            for bound in ("requests", "limits"):
                assert set(container["resources"][bound]) == {"cpu", "memory"}, name
            if workload["kind"] == "Deployment":  # /tmp is the only writable place
                mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
                volumes = {v["name"]: v for v in pod["volumes"]}
                assert "emptyDir" in volumes[mounts["/tmp"]], name


def test_http_services_probe_readyz_and_healthz_and_drain(objects: list[dict]) -> None:
    graceful = int(_config(objects)["GUNICORN_GRACEFUL_TIMEOUT"])
    for name, port in HTTP_SERVICES.items():
        deployment = one(objects, "Deployment", name)
        [container] = containers(deployment)
        assert f"0.0.0.0:{port}" in container["command"]
        assert container["ports"] == [{"name": "http", "containerPort": port}]
        assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
        assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
        drain = container["lifecycle"]["preStop"]["sleep"]["seconds"]
        grace = deployment["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
        assert grace > drain + graceful, f"{name} is killed before gunicorn drains"
        service = one(objects, "Service", name)
        assert service["spec"]["ports"] == [{"name": "http", "port": port, "targetPort": "http"}]
        env = {e["name"]: e for e in container["env"]}
        assert env["PROMETHEUS_MULTIPROC_DIR"]["value"] == "/run/prometheus"


def test_processes_without_http_export_metrics_on_their_own_port(objects: list[dict]) -> None:
    for name, (variable, port) in METRICS_PORTS.items():
        deployment = one(objects, "Deployment", name)
        annotations = deployment["spec"]["template"]["metadata"]["annotations"]
        assert annotations == {"prometheus.io/scrape": "true", "prometheus.io/port": str(port)}
        [container] = containers(deployment)
        assert container["ports"] == [{"name": "metrics", "containerPort": port}], name
        env = {e["name"]: e for e in container["env"]}
        assert env[variable] == {"name": variable, "value": str(port)}, name


def test_processes_without_http_have_heartbeat_probes(objects: list[dict]) -> None:
    # Each touches files in HEARTBEAT_DIR (shared/heartbeat.py): `alive` as its loop turns,
    # `ready` when Redis answered; a stuck loop fails liveness and the pod is restarted.
    for name in METRICS_PORTS:
        [container] = containers(one(objects, "Deployment", name))
        env = {e["name"]: e.get("value") for e in container["env"]}
        folder = env["HEARTBEAT_DIR"]
        assert folder.startswith("/tmp/"), "the one writable place"
        for probe, file in [("startup", "alive"), ("liveness", "alive"), ("readiness", "ready")]:
            command = container[f"{probe}Probe"]["exec"]["command"]
            assert command[:4] == ["python", "-m", "shared.heartbeat", f"{folder}/{file}"], name
            max_age = float(command[4])
            assert 0 < max_age <= 60, f"{name}: {probe} allows {max_age} s"
        liveness = container["livenessProbe"]
        assert liveness["periodSeconds"] * liveness["failureThreshold"] <= 60, name


def test_workers_get_what_the_timers_need(objects: list[dict]) -> None:
    # Timers make the server's moves in process: the rules, as the lobby does (docs/bots.md).
    [container] = containers(one(objects, "Deployment", "worker"))
    [configmap] = settings_maps(objects)
    assert {"configMapRef": {"name": configmap["metadata"]["name"]}} in container["envFrom"]
    config = configmap["data"]
    assert config["RULES_URL"] == "http://rules:8001"
    assert config["LOBBY_URL"] == "http://lobby:8000"
    assert {e["name"] for e in container["env"]} >= {"REDIS_URL", "RQ_REDIS_URL"}


def test_workers_outlast_a_bot_job_and_everything_scales(objects: list[dict]) -> None:
    worker = one(objects, "Deployment", "worker")
    # rq's warm shutdown finishes the job in hand: a few seconds, plus a lobby call's timeouts.
    assert worker["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] >= 30
    for name in ("rules", "lobby", "feed", "history", "worker"):
        hpa = one(objects, "HorizontalPodAutoscaler", name)
        assert hpa["spec"]["scaleTargetRef"]["name"] == name
        assert "replicas" not in one(objects, "Deployment", name)["spec"], "the HPA owns replicas"
        pdb = one(objects, "PodDisruptionBudget", name)
        assert pdb["spec"]["selector"]["matchLabels"] == {"app.kubernetes.io/name": name}


def test_every_object_is_in_the_namespace(objects: list[dict]) -> None:
    for obj in objects:
        if obj["kind"] not in CLUSTER_WIDE_KINDS:
            assert obj["metadata"].get("namespace") == NAMESPACE, obj["metadata"]["name"]


def settings_maps(objects: list[dict]) -> list[dict]:
    """The settings' ConfigMap (tapete-config-<hash>), not the dashboard's."""
    maps = find(objects, "ConfigMap")
    return [c for c in maps if c["metadata"]["name"].startswith("tapete-config")]


def _config(objects: list[dict]) -> dict[str, str]:
    [config] = settings_maps(objects)
    return config["data"]


# -- secrets -------------------------------------------------------------------------------
def test_secrets_hold_placeholders_only(objects: list[dict], overlay: str) -> None:
    example = yaml.safe_load(
        (ROOT / "k8s" / "overlays" / "prod" / "secret.example.yaml").read_text()
    )
    base = yaml.safe_load((ROOT / "k8s" / "base" / "secret.yaml").read_text())
    # created with generated values or from the secret store, never applied from git: the
    # services refuse the placeholders (services/settings.py), so no overlay renders them
    assert not find(objects, "Secret")
    for secret in (example, base):
        for key, value in secret["stringData"].items():
            password = re.match(r"rediss?://[^:/@]*:([^@]*)@", value)
            if key in ("TAPETE_STATE_KEY", "TAPETE_BOT_TOKEN_KEY", "REDIS_PASSWORD") or password:
                assert PLACEHOLDER in value, f"{key} looks like a real secret"
        assert "data" not in secret, "base64 data hides what is committed"
    keys = set(example["stringData"])
    for workload in [o for o in objects if o["kind"] == "Deployment"]:
        for container in containers(workload):
            for env in container.get("env", []):
                ref = env.get("valueFrom", {}).get("secretKeyRef")
                if ref:
                    assert ref["name"] == "tapete-secrets" and ref["key"] in keys


def test_every_redis_client_gets_the_redis_password(objects: list[dict]) -> None:
    # The URLs name the ACL user; the password comes from the Secret, never inside a URL.
    for workload in [o for o in objects if o["kind"] in WORKLOAD_KINDS]:
        for container in containers(workload):
            env = {e["name"]: e for e in container.get("env", [])}
            if "REDIS_URL" in env or workload["metadata"]["name"] == "redis":
                ref = env["REDIS_PASSWORD"]["valueFrom"]["secretKeyRef"]
                assert ref == {"name": "tapete-secrets", "key": "REDIS_PASSWORD"}
    example = yaml.safe_load(
        (ROOT / "k8s" / "overlays" / "prod" / "secret.example.yaml").read_text()
    )
    for key in ("REDIS_URL", "RQ_REDIS_URL"):
        assert re.match(r"rediss?://tapete@", example["stringData"][key]), key


def test_only_rules_gets_the_state_key(objects: list[dict]) -> None:
    for workload in [o for o in objects if o["kind"] == "Deployment"]:
        names = {e["name"] for c in containers(workload) for e in c.get("env", [])}
        assert ("TAPETE_STATE_KEY" in names) == (workload["metadata"]["name"] == "rules")


BOT_TOKEN_KEY_USERS = {"lobby", "feed", "worker"}  # the lobby's app, and the bots' moves


def test_the_bot_token_key_goes_where_bot_seats_tokens_are_made(objects: list[dict]) -> None:
    for workload in [o for o in objects if o["kind"] == "Deployment"]:
        names = {e["name"] for c in containers(workload) for e in c.get("env", [])}
        name = workload["metadata"]["name"]
        assert ("TAPETE_BOT_TOKEN_KEY" in names) == (name in BOT_TOKEN_KEY_USERS), name


def test_compose_requires_every_secret_where_it_is_used() -> None:
    # Unset, Compose stops with the message instead of starting a service without it.
    services = compose()["services"]
    needs = {"TAPETE_STATE_KEY": {"rules"}, "TAPETE_BOT_TOKEN_KEY": BOT_TOKEN_KEY_USERS}
    for variable, users in needs.items():
        for name, service in services.items():
            value = (service.get("environment") or {}).get(variable)
            if name in users:
                assert value.startswith(f"${{{variable}:?") and value.endswith("}"), name
            else:
                assert value is None, f"{name} gets {variable}"
    for name in ("redis", "lobby", "feed", "history", "history-consumer", "dispatcher", "worker"):
        assert services[name]["environment"]["REDIS_PASSWORD"].startswith("${REDIS_PASSWORD:?")


# -- the Ingress ---------------------------------------------------------------------------
PUBLIC_ROUTES = {
    "/v1/players": "lobby",
    "/v1/players/p1/matches": "history",
    "/v1/players/p1/ratings/brisca": "history",
    "/v1/quick": "lobby",
    "/v1/quick/q1": "lobby",
    "/v1/duplicates": "lobby",
    "/v1/duplicates/d1": "lobby",
    "/v1/tournaments": "lobby",
    "/v1/tournaments/t1": "lobby",
    "/v1/tournaments/t1/register": "lobby",
    "/v1/tournaments/t1/standings": "history",
    "/v1/matches": "lobby",
    "/v1/matches/m1": "lobby",
    "/v1/matches/m1/join": "lobby",
    "/v1/matches/m1/actions": "lobby",
    "/v1/matches/m1/events": "lobby",
    "/v1/matches/m1/log": "history",
    "/v1/matches/m1/replay": "history",
    "/v1/matches/m1/verify": "history",
    "/v1/matches/m1/scores": "history",
    "/v1/leaderboards/brisca": "history",
    "/v1/games": "rules",
    "/v1/games/brisca": "rules",
    # not public: the rules service's work, and every service's probes and metrics
    "/v1/games/brisca/setup": None,
    "/v1/games/brisca/apply": None,
    "/v1/games/brisca/view": None,
    "/v1/games/brisca/legal-actions": None,
    "/metrics": None,
    "/healthz": None,
    "/v1/playersx": None,
}


def route(ingress: dict, path: str) -> str | None:
    """The Service ingress-nginx sends `path` to: regex paths, longest first, `^` anchored."""
    [rule] = ingress["spec"]["rules"]
    paths = sorted(rule["http"]["paths"], key=lambda p: len(p["path"]), reverse=True)
    for candidate in paths:
        if re.match("^" + candidate["path"], path, re.IGNORECASE):
            return candidate["backend"]["service"]["name"]
    return None


def test_ingress_routes_the_public_paths_to_their_service(objects: list[dict]) -> None:
    # (the stream's own Ingress, tapete-feed, is checked below)
    ingress = one(objects, "Ingress", "tapete")
    assert ingress["metadata"]["annotations"]["nginx.ingress.kubernetes.io/use-regex"] == "true"
    routed = {path: route(ingress, path) for path in PUBLIC_ROUTES}
    assert routed == PUBLIC_ROUTES
    for path in ingress["spec"]["rules"][0]["http"]["paths"]:
        backend = path["backend"]["service"]
        assert backend["port"] == {"name": "http"}
        one(objects, "Service", backend["name"])


def test_the_stream_goes_to_the_feed_unbuffered_with_long_reads(objects: list[dict]) -> None:
    feed = one(objects, "Ingress", "tapete-feed")
    api = one(objects, "Ingress", "tapete")
    assert feed["spec"]["rules"][0]["host"] == api["spec"]["rules"][0]["host"]
    notes = feed["metadata"]["annotations"]
    assert notes["nginx.ingress.kubernetes.io/proxy-buffering"] == "off"
    assert int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 600
    merged = {"spec": {"rules": [{"http": {"paths": [
        *api["spec"]["rules"][0]["http"]["paths"], *feed["spec"]["rules"][0]["http"]["paths"]
    ]}}]}}  # fmt: skip
    assert route(merged, "/v1/matches/m1/stream") == "feed"
    assert route(merged, "/v1/matches/m1/stream-ticket") == "lobby"
    assert route(merged, "/v1/matches/m1/events") == "lobby"
    hpa = one(objects, "HorizontalPodAutoscaler", "feed")
    assert any(m["type"] == "Pods" for m in hpa["spec"]["metrics"]), "scales on open streams"


# -- network policies ----------------------------------------------------------------------
def selects(selector: dict, labels: dict[str, str]) -> bool:
    if any(labels.get(k) != v for k, v in selector.get("matchLabels", {}).items()):
        return False
    for expression in selector.get("matchExpressions", []):
        inside = labels.get(expression["key"]) in expression["values"]
        if inside != (expression["operator"] == "In"):
            return False
    return True


def admitted(
    policies: list[dict],
    source: tuple[str, str],
    target: str,
    port: int | None = None,
    named: dict[str, int] | None = None,
) -> bool:
    """May pod `source[1]` of namespace `source[0]` connect to pod `target` of ours?

    With `port`, on that port number; a policy's named port is the target's container port
    of that name (`named`), as Kubernetes resolves it, and matches nothing if it has none.
    """
    namespace, name = source
    applying = [p for p in policies if selects(p["spec"]["podSelector"], label(target))]
    assert applying, f"no policy selects {target}: it would be open to all"

    def peer_admits(peer: dict) -> bool:
        if "ipBlock" in peer:
            return True  # addresses: count it as open to anyone
        spaces, pods = peer.get("namespaceSelector"), peer.get("podSelector")
        if spaces is None:
            in_space = namespace == NAMESPACE
        else:
            in_space = selects(spaces, {"kubernetes.io/metadata.name": namespace})
        return in_space and (pods is None or selects(pods, label(name)))

    def port_admits(rule: dict) -> bool:
        if port is None or "ports" not in rule:
            return True
        return any(
            entry.get("protocol", "TCP") == "TCP"
            and (named or {}).get(entry.get("port"), entry.get("port")) in (None, port)
            for entry in rule["ports"]
        )

    return any(
        ("from" not in rule or any(peer_admits(peer) for peer in rule["from"]))
        and port_admits(rule)
        for policy in applying
        for rule in policy["spec"].get("ingress", [])
    )


def named_ports(objects: list[dict], name: str) -> dict[str, int]:
    """The named container ports of workload `name`'s pods."""
    [workload] = [
        o for o in objects if o["kind"] in WORKLOAD_KINDS and o["metadata"]["name"] == name
    ]
    return {
        p["name"]: p["containerPort"]
        for c in containers(workload)
        for p in c.get("ports", [])
        if "name" in p
    }


def label(name: str) -> dict[str, str]:
    return {"app.kubernetes.io/name": name}


def test_rules_and_redis_answer_only_from_inside(objects: list[dict], overlay: str) -> None:
    policies = find(objects, "NetworkPolicy")
    outsider, edge, prometheus = (
        ("default", "any"),
        ("ingress-nginx", "controller"),
        ("monitoring", "prometheus"),
    )
    expect = {
        (outsider, "rules"): False,
        (outsider, "lobby"): False,
        (outsider, "worker"): False,
        (outsider, "dispatcher"): False,
        (edge, "lobby"): True,
        (edge, "feed"): True,
        (edge, "history"): True,
        (edge, "rules"): True,  # the Ingress routes only the catalog there
        (edge, "web"): True,
        (outsider, "web"): False,
        (edge, "worker"): False,
        (edge, "dispatcher"): False,
        (prometheus, "lobby"): True,
        (prometheus, "history-consumer"): True,
        # the bot processes: their metrics port, nothing else
        (prometheus, "dispatcher", 9103): True,
        (prometheus, "worker", 9104): True,
        (prometheus, "dispatcher", 9104): False,
        (prometheus, "worker", 9103): False,
        (prometheus, "worker", 8000): False,
        ((NAMESPACE, "lobby"), "rules"): True,
        ((NAMESPACE, "worker"), "lobby"): True,
    }
    if overlay == "dev":
        expect |= {
            (outsider, "redis"): False,
            (edge, "redis"): False,
            ((NAMESPACE, "rules"), "redis"): False,
            ((NAMESPACE, "lobby"), "redis"): True,
            ((NAMESPACE, "feed"), "redis"): True,
            ((NAMESPACE, "worker"), "redis"): True,
            ((NAMESPACE, "history-consumer"), "redis"): True,
        }
    found = {
        key: admitted(policies, *key, named=named_ports(objects, key[1]) if key[2:] else None)
        for key in expect
    }
    assert found == expect


def test_dev_redis_keeps_an_append_only_file_on_a_volume(objects: list[dict], overlay: str) -> None:
    if overlay != "dev":
        assert not find(objects, "StatefulSet"), "prod uses an external Redis"
        return
    redis = one(objects, "StatefulSet", "redis")
    [container] = containers(redis)
    command = " ".join(container["command"])
    assert "--appendonly yes" in command and "--appendfsync everysec" in command
    assert "--maxmemory-policy noeviction" in command  # a match log is never evicted
    [claim] = redis["spec"]["volumeClaimTemplates"]
    assert {"name": claim["metadata"]["name"], "mountPath": "/data"} in container["volumeMounts"]


# -- Dockerfile and docker-compose.yml (no tool needed) ------------------------------------
def dockerfile_stages() -> list[list[str]]:
    lines = (ROOT / "Dockerfile").read_text().replace("\\\n", " ").splitlines()
    stages: list[list[str]] = []
    for line in (raw.strip() for raw in lines):
        if line.startswith("FROM "):
            stages.append([])
        if line and not line.startswith("#") and stages:
            stages[-1].append(line)
    return stages


def test_dockerfile_final_stage_is_slim_and_not_root() -> None:
    web, build, final = dockerfile_stages()
    assert web[0].split()[1].startswith("node:"), "the web client is built in a node stage"
    assert build[0].split()[1] == final[0].split()[1], "both stages need the same base image"
    assert "slim" in final[0]
    users = [line.split()[1] for line in final if line.startswith("USER ")]
    assert users and users[-1].split(":")[0].isdigit() and users[-1] != "0"
    installs = [line for line in final if re.search(r"\b(apt-get|apk|pip|gcc|make)\b", line)]
    assert not installs, f"the final stage installs or builds: {installs}"
    copies = [line for line in final if line.startswith("COPY")]
    assert copies == [
        "COPY --from=build /opt/tapete /opt/tapete",
        "COPY --from=web /src/web/dist /opt/tapete/web",  # static files only
    ]


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_starts_in_order_with_healthchecks() -> None:
    services = compose()["services"]
    redis = services["redis"]
    assert redis["image"].startswith("redis:7")
    assert "--appendonly yes --appendfsync everysec" in " ".join(redis["command"])
    assert any(volume.endswith(":/data") for volume in redis["volumes"])
    for name in ("redis", "rules", "lobby", "feed", "history", *METRICS_PORTS):
        assert "healthcheck" in services[name], name
    for name, service in services.items():
        for needed, condition in service.get("depends_on", {}).items():
            assert condition == {"condition": "service_healthy"}, f"{name} -> {needed}"
            assert "healthcheck" in services[needed], needed
        if name != "redis":
            assert service["read_only"] is True and service["cap_drop"] == ["ALL"], name
    assert services["lobby"]["depends_on"].keys() == {"redis", "rules"}
    worker = services["worker"]
    assert "ports" not in worker and "container_name" not in worker, "workers must scale"


def test_compose_exports_the_metrics_and_gives_workers_the_rules() -> None:
    services = compose()["services"]
    for name, (variable, port) in METRICS_PORTS.items():
        service = services[name]
        assert service["environment"][variable] == str(port), name
        folder = service["environment"]["HEARTBEAT_DIR"]  # healthy: Redis answered lately
        assert service["healthcheck"]["test"][1:5] == [
            "python",
            "-m",
            "shared.heartbeat",
            f"{folder}/ready",
        ]
        assert "ports" not in service, f"{name}: its metrics are for Prometheus, not the host"
    worker = services["worker"]
    assert worker["environment"]["RULES_URL"] == "http://rules:8001"  # timers, in process
    assert worker["depends_on"].keys() >= {"redis", "rules", "lobby"}


# -- slow and greedy clients ------------------------------------------------------------------
def test_the_ingress_buffers_bodies_and_answers_but_not_the_feed(objects: list[dict]) -> None:
    api = one(objects, "Ingress", "tapete")["metadata"]["annotations"]
    feed = one(objects, "Ingress", "tapete-feed")["metadata"]["annotations"]
    prefix = "nginx.ingress.kubernetes.io/"
    assert api[prefix + "proxy-request-buffering"] == api[prefix + "proxy-buffering"] == "on"
    assert feed[prefix + "proxy-buffering"] == "off"
    [config] = [
        c for c in find(objects, "ConfigMap") if c["metadata"]["name"].startswith("tapete-config")
    ]
    assert config["data"]["FORWARDED_HOPS"] == "1"  # the controller: X-Forwarded-For is the client


def test_compose_serves_the_public_api_through_the_proxy_only() -> None:
    services = compose()["services"]
    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx:") and "bookworm" in proxy["image"]
    assert any(v.startswith("./deploy/nginx/tapete.conf.template:") for v in proxy["volumes"])
    assert proxy["ports"] == ["8000:8000"]
    assert {"lobby", "feed", "history"} <= proxy["depends_on"].keys()
    for name in ("lobby", "feed", "history"):
        assert "ports" not in services[name], f"{name}: public only through the proxy"
        assert services[name]["environment"]["FORWARDED_HOPS"] == "1"
    redis = " ".join(services["redis"]["command"])
    assert "--maxmemory 800mb" in redis and "--maxmemory-policy noeviction" in redis


# -- no gunicorn port for clients ---------------------------------------------------------------
# gunicorn reached directly goes offline under a few dozen clients sending their headers slowly
# (docs/operations.md, "The proxy"): clients reach the services only through nginx.
GUNICORN_PORTS = {8000, 8001, 8002, 8003}


def test_compose_publishes_the_proxy_and_no_gunicorn_port() -> None:
    services = compose()["services"]
    default = {name: s for name, s in services.items() if not s.get("profiles")}
    published = {name: service["ports"] for name, service in default.items() if "ports" in service}
    assert published == {"proxy": ["8000:8000"]}  # nginx's; rules is not published at all
    for name, service in services.items():  # the optional monitoring profile: this host only
        if service.get("profiles"):
            assert all(port.startswith("127.0.0.1:") for port in service.get("ports", [])), name
    for name, service in services.items():
        assert service.get("network_mode") != "host", f"{name} would publish every port"


def test_kubernetes_gives_clients_no_gunicorn_port(objects: list[dict]) -> None:
    for service in find(objects, "Service"):
        name, spec = service["metadata"]["name"], service["spec"]
        assert spec.get("type", "ClusterIP") == "ClusterIP", f"{name}: reachable from outside"
        assert not spec.get("externalIPs"), name
        assert all("nodePort" not in port for port in spec["ports"]), name
    for workload in [o for o in objects if o["kind"] in WORKLOAD_KINDS]:
        pod = workload["spec"]["template"]["spec"]
        assert not pod.get("hostNetwork"), workload["metadata"]["name"]
        for container in pod["containers"]:
            assert all("hostPort" not in port for port in container.get("ports", [])), container
    for policy in find(objects, "NetworkPolicy"):  # only the controller and the namespace
        for rule in policy["spec"].get("ingress", []):
            assert all("ipBlock" not in peer for peer in rule.get("from", [])), policy
    backends = {
        path["backend"]["service"]["name"]
        for ingress in find(objects, "Ingress")
        for rule in ingress["spec"]["rules"]
        for path in rule["http"]["paths"]
    }
    assert backends == {"lobby", "feed", "history", "rules", "web"}  # behind ingress-nginx
    ports = {p["port"] for s in find(objects, "Service") for p in s["spec"]["ports"]}
    assert GUNICORN_PORTS & ports  # (the gunicorn Services exist, for the controller only)
