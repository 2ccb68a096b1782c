"""``irscale scale image --shards K``: bad counts, images without pair buckets,
the order of the checks (before any cluster is started), and the same output and file with
shards on threads and on a local cluster as without them."""

from __future__ import annotations

import pytest

from .conftest import assert_ok, err, ok, opt, run_case

IMAGE = ["scale", "image", "-m", "AP", "-N", "10", "--no-progress"]
#: Nothing listens on port 1 of this machine.
UNREACHABLE = "tcp://127.0.0.1:1"


def same_image_as(*argv: str, name: str, reference: str):
    """The output and the written file ``name`` equal those of ``argv`` (which writes
    ``reference``)."""

    def check(result, ws, run):
        expected = run(list(argv))
        assert_ok(expected)
        assert result.out == expected.out, result.describe()
        assert ws.read(name) == ws.read(reference), f"{name} differs from {reference}"

    return check


CASES = [
    err("shards-zero", [*IMAGE, "--shards", "0"], opt("--shards"), "got 0"),
    err("shards-negative", [*IMAGE, "--shards", "-3"], opt("--shards"), "-3"),
    err("shards-text", [*IMAGE, "--shards", "many"], opt("--shards"), "many"),
    err("shards-fraction", [*IMAGE, "--shards", "2.5"], opt("--shards"), "2.5"),
    err("shards-empty", [*IMAGE, "--shards", ""], opt("--shards")),
    err("shards-closed-form", ["scale", "image", "-m", "P@5", "-N", "6", "--shards", "2",
                               "--no-progress"], opt("--shards"), "meet-in-the-middle", "P@5"),
    err("shards-enumerated", ["scale", "image", "-m", "ERR", "-N", "4", "--shards", "2",
                              "--no-progress"], opt("--shards"), "ERR"),
    err("shards-dyadic-rbp", ["scale", "image", "-m", "RBP_p05", "-N", "4", "--shards", "2",
                              "--no-progress"], opt("--shards"), "no pair buckets"),
    err("shards-diversity", ["scale", "image", "-m", "alpha-nDCG@3", "-N", "3", "--intents",
                             "2", "--shards", "2", "--no-progress"], opt("--shards"),
        "diversity"),
    # the count is checked before the scheduler is reached
    err("shards-zero-before-scheduler", [*IMAGE, "--shards", "0", "--scheduler", UNREACHABLE],
        opt("--shards"), "got 0"),
    ok("shards-on-threads-same-image", [*IMAGE, "--shards", "3", "-o", "sharded.parquet"],
       same_image_as(*IMAGE, "-o", "local.parquet", name="sharded.parquet",
                     reference="local.parquet"),
       allowed_new=["sharded.parquet", "local.parquet"]),
    ok("shards-one-csv-same-image", [*IMAGE, "--shards", "1", "-o", "sharded.csv"],
       same_image_as(*IMAGE, "-o", "local.csv", name="sharded.csv", reference="local.csv"),
       allowed_new=["sharded.csv", "local.csv"]),
]

LOCAL_CLUSTER = [
    ok("shards-local-cluster-same-image",
       [*IMAGE, "--scheduler", "local:1", "--shards", "2", "-o", "cluster.parquet"],
       same_image_as(*IMAGE, "-o", "local.parquet", name="cluster.parquet",
                     reference="local.parquet"),
       allowed_new=["cluster.parquet", "local.parquet"]),
    ok("shards-local-cluster-default-shards-graded",
       ["scale", "image", "-m", "nDCG@6", "-N", "6", "--levels", "3", "--no-progress",
        "--scheduler", "local:1", "-o", "cluster.csv"],
       same_image_as("scale", "image", "-m", "nDCG@6", "-N", "6", "--levels", "3",
                     "--no-progress", "-o", "local.csv", name="cluster.csv",
                     reference="local.csv"),
       allowed_new=["cluster.csv", "local.csv"]),
]


@pytest.mark.parametrize("case", CASES)
def test_shards(case, ws, run_cli):
    run_case(case, ws, run_cli)


@pytest.mark.parametrize("case", LOCAL_CLUSTER)
def test_shards_on_a_local_cluster(case, ws, run_cli):
    pytest.importorskip("distributed")
    run_case(case, ws, run_cli)
