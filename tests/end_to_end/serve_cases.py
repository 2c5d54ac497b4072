#!/usr/bin/env python3
"""The server cases of issue 36 section 8, reproduced against a running bin/splotch --serve with plain
sockets (nothing but Python's standard library), each printing what it found: status codes, times,
whether a second server started. Run it on the tree's binary and on an older one to compare:

    tests/end_to_end/serve_cases.py [--splotch bin/splotch] [CASE ...]

CASE: clients, slow, heavy, port, movie (all by default). The snapshot is the Gadget file of
../shared/data (4039 gas particles) drawn without a brightness, as a user's first .par would be.
The heavy case serves testdata/demo.par (300000 particles) after `make demo`. A case reports and
goes on; the limits below only end a case that would hang.
"""
import argparse
import atexit
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "data")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port, path, timeout=600):
    """(status, headers text, body bytes, seconds); status None when no answer came in `timeout`."""
    started = time.time()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % path).encode())
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
    except (socket.timeout, ConnectionError) as e:
        return None, str(e), b"", time.time() - started
    head, _, body = data.partition(b"\r\n\r\n")
    m = re.match(rb"HTTP/1\.[01] (\d+)", head)
    return (int(m.group(1)) if m else None), head.decode(errors="replace"), body, time.time() - started


class Server:
    def __init__(self, splotch, par, port, work, extra=()):
        self.err_path = os.path.join(work, "server%d.err" % port)
        self.out_path = os.path.join(work, "server%d.out" % port)
        self.proc = subprocess.Popen([splotch, "--serve", par, "--port", str(port)] + list(extra),
                                     stdout=open(self.out_path, "w"), stderr=open(self.err_path, "w"))
        self.port = port
        self.token = None
        atexit.register(self.kill)  # (a case that fails part way leaves no server behind)
        end = time.time() + 120
        while time.time() < end and self.proc.poll() is None:
            m = re.search(r"/\?token=([0-9a-f]+)", open(self.out_path).read())
            if m:
                self.token = m.group(1)
                break
            time.sleep(0.05)

    def q(self, path, **params):
        params = dict(params)
        params["token"] = self.token
        return path + "?" + urllib.parse.urlencode(params)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def real_par(work):
    par = os.path.join(work, "real.par")
    with open(par, "w") as f:
        f.write("simtype = 2\ninfile = %s/gadgetreader_test_g2_snap.0\nptypes = 1\nptype0 = 0\nsize_fix0 = 0\n"
                "color_label0 = RHO\ncolor_log0 = TRUE\npalette0 = testdata/palettes/fire.pal\nxres = 400\n"
                "yres = 300\noutfile = %s\n" % (os.path.abspath(DATA), os.path.join(work, "out.png")))
    return par


def case_clients(splotch, par, work):
    s = Server(splotch, par, free_port(), work)
    codes = {}
    for i in range(260):
        status = get(s.port, s.q("/view", client="c%d" % i, xres=32, yres=24))[0]
        codes[status] = codes.get(status, 0) + 1
    info = get(s.port, s.q("/info"))
    view = get(s.port, s.q("/view", client="newpage", xres=32, yres=24))
    print("clients: 260 /view of distinct clients: %s; then /info: %s (%s); a new page's /view: %s" %
          (codes, info[0], info[2][:60], view[0]))
    s.stop()


def slow_connection(port, token):
    c = socket.create_connection(("127.0.0.1", port))
    c.sendall(("GET /info?token=%s HTTP/1.1\r\n" % token).encode())
    return c


def case_slow(splotch, par, work, count=8, hold=45):
    s = Server(splotch, par, free_port(), work)
    slow = [slow_connection(s.port, s.token) for _ in range(count)]
    for c in slow:
        c.setblocking(False)
    started = time.time()
    answered = None
    closed_at = {}
    import threading
    result = {}

    def ask():
        result["r"] = get(s.port, s.q("/info"), timeout=hold)

    t = threading.Thread(target=ask)
    t.start()
    next_header = time.time() + 3
    while time.time() - started < hold + 1:
        if answered is None and "r" in result:
            answered = result["r"]
        if time.time() >= next_header:  # a header every 3 s, as a slow client sends them
            for k, c in enumerate(slow):
                if k in closed_at:
                    continue
                try:
                    c.send(b"X-Slow: 1\r\n")
                except OSError:
                    closed_at[k] = time.time() - started
            next_header += 3
        for k, c in enumerate(slow):
            if k in closed_at:
                continue
            try:
                if c.recv(4096) == b"":
                    closed_at[k] = time.time() - started
            except BlockingIOError:
                pass
            except OSError:
                closed_at[k] = time.time() - started
        if answered is not None and len(closed_at) == count:
            break
        time.sleep(0.05)
    t.join()
    answered = result["r"]
    print("slow: %d connections sending a header every 3 s; another client's /info: %s in %.2f s; the slow ones "
          "closed by the server after %s s" % (count, answered[0] if answered[0] else "no answer",
                                                answered[3], sorted(round(v, 1) for v in closed_at.values()) or "-"))
    for c in slow:
        c.close()
    s.stop()


def case_heavy(splotch, par, work, wait=60):
    # The demo's 300000 particles (make demo) where they are, else the Gadget file's 4039.
    demo = os.path.exists("build/demo/demo_particles.bin")
    s = Server(splotch, "testdata/demo.par" if demo else par, free_port(), work,
               ["outfile=" + os.path.join(work, "demo.png")] if demo else [])
    print("heavy: serving %s" % ("testdata/demo.par (300000 particles)" if demo else "the Gadget file"))
    heavy = s.q("/view", client="heavy", xres=4096, yres=4096, smooth_factor0=64, minrad_pix=64)
    r = get(s.port, heavy, timeout=3)  # the client gives up after 3 s
    print("heavy: 4096^2 smooth_factor0=64 minrad_pix=64: %s after %.2f s%s" %
          (r[0] if r[0] else "no answer (the client gave up)", r[3],
           (" (" + r[2].decode(errors="replace").strip()[:200] + ")") if r[0] else ""))
    other = get(s.port, s.q("/view", client="other", xres=64, yres=48), timeout=wait)
    print("heavy: another browser's small /view then: %s after %.2f s" % (other[0] or "no answer", other[3]))
    s.proc.kill()  # (the drawing would go on for minutes)
    s.proc.wait()


def case_port(splotch, par, work):
    port = free_port()
    a = Server(splotch, par, port, work)
    b = Server(splotch, par, port, work)
    started = b.token is not None
    print("port: a second --serve on port %d: %s (exit status %s)%s" %
          (port, "started, printing its URL" if started else "did not start", b.proc.poll(),
           "" if started else ": " + open(b.err_path).read().strip()[:200]))
    if started:
        codes = {}
        for _ in range(20):
            status = get(port, a.q("/info"))[0]
            codes[status] = codes.get(status, 0) + 1
        print("port: 20 /info with the first server's token: %s (403: answered by the second)" % codes)
        b.stop()
    a.stop()


def case_movie(splotch, par, work):
    s = Server(splotch, par, free_port(), work)
    keys = "0,0,-5000,1500,1500,1500,0,1,0;500,0,-5000,1500,1500,1500,0,1,0"
    r = get(s.port, s.q("/movie", frames=100000, keys=keys, xres=4096, yres=4096))
    print("movie: 100000 frames at 4096^2: %s, %s" % (r[0], r[2].decode(errors="replace").strip()[:300]))
    get(s.port, s.q("/movie/cancel"))
    while b'"running":true' in get(s.port, s.q("/movie/progress"))[2]:
        time.sleep(0.2)
    for f in os.listdir(work):
        if re.match(r"out.*\d{4}\.png", f):
            os.remove(os.path.join(work, f))
    # Two movies of the same .par: 4 frames, then 2.
    for frames in (4, 2):
        r = get(s.port, s.q("/movie", frames=frames, keys=keys))
        if r[0] == 200:  # an estimate: asked again, confirmed
            r = get(s.port, s.q("/movie", frames=frames, keys=keys, confirm=1))
        while b'"running":true' in get(s.port, s.q("/movie/progress"))[2]:
            time.sleep(0.2)
        time.sleep(0.01)
        last = json.loads(get(s.port, s.q("/movie/progress"))[2])
        print("movie: %d frames: %s, last file %s" % (frames, r[0], last.get("last_file")))
    files = sorted(f for f in os.listdir(work) if f.endswith(".png") and re.search(r"\d{4}\.png$", f))
    print("movie: files after both: %s" % " ".join(files))
    s.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--splotch", default="bin/splotch")
    parser.add_argument("cases", nargs="*", default=["clients", "slow", "heavy", "port", "movie"])
    a = parser.parse_args()
    if not os.path.isdir(DATA):
        print("no ../shared/data beside this checkout: nothing to serve", file=sys.stderr)
        return 77
    work = tempfile.mkdtemp(prefix="splotch_cases_")
    par = real_par(work)
    try:
        for case in a.cases:
            globals()["case_" + case](os.path.abspath(a.splotch), par, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
