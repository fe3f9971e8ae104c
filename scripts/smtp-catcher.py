#!/usr/bin/env python3
"""A local SMTP server that keeps what it receives, for tests.

    smtp-catcher.py HOST:PORT DIR

Each message received is written to DIR as one JSON file (envelope sender
and recipients, the decoded subject, the MIME type of the whole message,
and its text/plain and text/html parts, decoded). Prints "ready" once it
listens; stops on SIGTERM or SIGINT. Needs aiosmtpd (Debian's
python3-aiosmtpd, installed by scripts/install-deps.sh).
"""
import email
import email.policy
import json
import os
import signal
import sys
import threading

from aiosmtpd.controller import Controller


class Keep:
    def __init__(self, folder):
        self.folder = folder
        self.count = 0
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        parts = {}
        for part in message.walk():
            kind = part.get_content_type()
            if kind in ("text/plain", "text/html") and kind not in parts:
                parts[kind] = part.get_content()
        record = {
            "from": envelope.mail_from,
            "to": envelope.rcpt_tos,
            "subject": str(message["subject"] or ""),
            "content_type": message.get_content_type(),
            "text": parts.get("text/plain"),
            "html": parts.get("text/html"),
        }
        with self.lock:
            self.count += 1
            name = "%d-%04d.json" % (os.getpid(), self.count)
        path = os.path.join(self.folder, name)
        with open(path + ".part", "w", encoding="utf-8") as out:
            json.dump(record, out, ensure_ascii=False)
        os.rename(path + ".part", path)
        return "250 Message accepted for delivery"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    host, port = sys.argv[1].rsplit(":", 1)
    folder = sys.argv[2]
    os.makedirs(folder, exist_ok=True)
    controller = Controller(Keep(folder), hostname=host, port=int(port))
    controller.start()
    print("ready", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    controller.stop()


if __name__ == "__main__":
    main()
