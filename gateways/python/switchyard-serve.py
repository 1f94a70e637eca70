"""Run NVIDIA Switchyard's server from the PyPI wheel (nemo-switchyard) until SIGTERM.

Written for gatecheck: the wheel carries the server (the same Rust crate as
`switchyard-server`, built into `switchyard_rust`), which binds loopback only; the crate
itself needs a newer Rust than the machine has, so the wheel is how it runs here.

usage: python switchyard-serve.py CONFIG.toml PORT
"""

import importlib.metadata
import signal
import sys
import threading

from switchyard_rust.server import Server


def main() -> None:
    config, port = sys.argv[1], int(sys.argv[2])
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda *_: stop.set())
    server = Server(config, port=port)
    version = importlib.metadata.version("nemo-switchyard")
    print(f"switchyard {version} listening on {server.base_url}", flush=True)
    stop.wait()
    server.close()


if __name__ == "__main__":
    main()
