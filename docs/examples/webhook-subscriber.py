#!/usr/bin/env python3
"""A RingMES webhook subscriber: checks each delivery's signature, handles it once, acknowledges it."""
import hashlib, hmac, json, os, time
from http.server import BaseHTTPRequestHandler, HTTPServer

SECRET = os.environ["RINGMES_APP_SECRET"].encode()  # the app's secret (第三方应用)
seen = set()  # delivery ids handled; keep them in your database in production


class Subscriber(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        ts = self.headers.get("X-Timestamp", "")
        want = hmac.new(SECRET, ts.encode() + b"\n" + body, hashlib.sha256).hexdigest()
        fresh = ts.isdigit() and abs(time.time() * 1000 - int(ts)) < 5 * 60 * 1000
        if not (fresh and hmac.compare_digest(want, self.headers.get("X-Signature", ""))):
            self.send_response(401)  # not from RingMES (or replayed late): refused
            self.end_headers()
            return
        event = json.loads(body)
        if event["deliveryId"] not in seen:  # a repeated delivery is acknowledged, not handled again
            seen.add(event["deliveryId"])
            print(json.dumps(event, ensure_ascii=False), flush=True)  # handle the event here
        self.send_response(204)  # any 2xx acknowledges; anything else is retried
        self.end_headers()

    def log_message(self, *args):
        pass


HTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8787"))), Subscriber).serve_forever()
