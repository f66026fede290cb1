"""A real S3-compatible server on loopback for the tests: moto's standalone server
(``python -m moto.server``, a test dependency), on a free port, with one bucket.

:func:`s3_store` starts it, sets the standard AWS variables of this process (endpoint,
region, credentials: what :mod:`pokerarena.workers.fsys` reads, and what the CLI
subprocesses the tests start inherit), yields the bucket's URI and stops it again.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def s3_store(bucket: str = "arena") -> Iterator[str]:
    """``s3://<bucket>`` on a fresh moto server, with the AWS variables set to reach it."""
    import pyarrow.fs as pafs

    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p",
                             str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = {"AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}", "AWS_REGION": "us-east-1",
           "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"}
    saved = {k: os.environ.get(k) for k in [*env, "AWS_ENDPOINT_URL_S3"]}
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                assert proc.poll() is None, "moto's server did not start"
                assert time.monotonic() < deadline, "moto's server did not answer"
                time.sleep(0.1)
        os.environ.pop("AWS_ENDPOINT_URL_S3", None)
        os.environ.update(env)
        pafs.S3FileSystem(access_key="testing", secret_key="testing", region="us-east-1",
                          endpoint_override=f"127.0.0.1:{port}", scheme="http",
                          allow_bucket_creation=True).create_dir(bucket)
        yield f"s3://{bucket}"
    finally:
        proc.terminate()
        proc.wait(10)
        from pokerarena.platform.storage import local_folder

        # what the drivers derived locally for this bucket (standings, summaries)
        shutil.rmtree(local_folder(f"s3://{bucket}"), ignore_errors=True)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
