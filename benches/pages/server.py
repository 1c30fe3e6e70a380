"""A help desk's REST API on 127.0.0.1 for benches/pages.sh: GET
/KIND/tickets?page=N answers page N of 20, 50 tickets each, with the next
page's URL in `next` (null on the last). KIND is how the JSON is written:
`utf8` (compact, raw UTF-8, as most APIs send it), `ascii` (compact, every
non-ASCII char a \\u escape, as Python's json.dumps does by default) or
`pretty` (indented by two spaces). Prints its port, then serves until
killed."""
import json
import random
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

PAGES, PER_PAGE = 20, 50
random.seed(7)
WORDS = ["printer", "login", "VPN", "invoice", "会議室", "プリンター", "パスワード", "請求書", "réseau", "mise à jour"]
NAMES = ["Aiko Tanaka", "田中 愛子", "Jürgen Groß", "Chloé Martin", None, None]


def ticket(i):
    subject = " ".join(random.choice(WORDS) for _ in range(4))
    lines = [
        'User says: "%s is broken" since %s.' % (random.choice(WORDS), random.choice(["Monday", "月曜日", "hier"])),
        "手順: 再起動しましたが、直りません。\tTried C:\\Temp\\cache too.",
        "Steps: " + ", ".join(random.choice(WORDS) for _ in range(8)),
    ]
    return {
        "id": i,
        "subject": subject,
        "description": "\n".join(lines),
        "status": random.choice(["open", "open", "pending", "closed"]),
        "priority": random.choice(["low", "normal", "normal", "high", "urgent"]),
        "assignee": random.choice(NAMES),
        "tags": random.sample(["hardware", "network", "billing", "account", "japan"], 2),
        "created_at": "2026-11-%02dT%02d:%02d:00Z" % (1 + i % 28, i % 24, i % 60),
        "estimate_h": round(random.uniform(0.25, 16), 2),
        "comments": random.randint(0, 30),
    }


TICKETS = [ticket(i) for i in range(1, PAGES * PER_PAGE + 1)]


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urlparse(self.path)
        kind = url.path.split("/")[1]
        page = int(parse_qs(url.query).get("page", ["1"])[0])
        host = self.headers["host"]
        body = {
            "page": page,
            "tickets": TICKETS[(page - 1) * PER_PAGE : page * PER_PAGE],
            "next": "http://%s/%s/tickets?page=%d" % (host, kind, page + 1) if page < PAGES else None,
        }
        if kind == "pretty":
            text = json.dumps(body, ensure_ascii=False, indent=2)
        else:
            text = json.dumps(body, ensure_ascii=(kind == "ascii"), separators=(",", ":"))
        data = text.encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
