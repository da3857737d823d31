#!/usr/bin/env bash
# Two RingMES processes on one PostgreSQL database behind nginx, on this machine: checks a sign-in
# on one process used through the other, and an attachment uploaded through nginx and read back
# from each process directly (shared ATTACHMENT_DIR). Needs a build (npm run build), nginx
# (Debian: /usr/sbin/nginx) and PostgreSQL at $PG (default postgres://postgres@127.0.0.1:5432).
set -euo pipefail
cd "$(dirname "$0")/.."
PG=${PG:-postgres://postgres@127.0.0.1:5432}
DB=ringmes_scaleout_$$
WORK=$(mktemp -d)
NGINX=${NGINX:-/usr/sbin/nginx}
P1=18481 P2=18482 PN=18480
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  sleep 1
  psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
psql "$PG/postgres" -qc "CREATE DATABASE $DB"
mkdir -p "$WORK/shared/attachments" "$WORK/shared/exports" "$WORK/d1" "$WORK/d2"
common=(DATABASE_URL="$PG/$DB" HOST=127.0.0.1 SEED=minimal ADMIN_PASSWORD=scaleout123 API_SECRET_KEY=scale-out-test-key
  ATTACHMENT_DIR="$WORK/shared/attachments" EXPORT_DIR="$WORK/shared/exports" TRUST_PROXY=127.0.0.1 LOG_LEVEL=warn)
t0=$(date +%s)
env "${common[@]}" PORT=$P1 DATA_DIR="$WORK/d1" node apps/server/dist/main.js >"$WORK/s1.log" 2>&1 &
pids+=($!)
# The second starts once the first has migrated and seeded (both would wait on the same lock anyway).
until curl -sf "http://127.0.0.1:$P1/api/ready" >/dev/null; do sleep 0.5; done
env "${common[@]}" PORT=$P2 DATA_DIR="$WORK/d2" node apps/server/dist/main.js >"$WORK/s2.log" 2>&1 &
pids+=($!)
until curl -sf "http://127.0.0.1:$P2/api/ready" >/dev/null; do sleep 0.5; done
echo "two processes ready in $(( $(date +%s) - t0 )) s"

# The upstream block of the example site, pointed at the two ports.
sed -e "s/127.0.0.1:8081/127.0.0.1:$P1/; s/127.0.0.1:8082/127.0.0.1:$P2/" deploy/nginx/ringmes.conf |
  sed -n '/^upstream/,/^}/p' >"$WORK/upstream.conf"
cat >"$WORK/nginx.conf" <<CONF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path $WORK/body; proxy_temp_path $WORK/proxy;
  fastcgi_temp_path $WORK/fcgi; uwsgi_temp_path $WORK/uwsgi; scgi_temp_path $WORK/scgi;
  include $WORK/upstream.conf;
  server {
    listen 127.0.0.1:$PN;
    client_max_body_size 25m;
    location = /metrics { return 404; }
    location / {
      proxy_pass http://ringmes;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_request_buffering off;
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
CONF
"$NGINX" -c "$WORK/nginx.conf" -p "$WORK"
until curl -sf "http://127.0.0.1:$PN/api/health" >/dev/null; do sleep 0.2; done

login=$(curl -sf -XPOST "http://127.0.0.1:$PN/api/v1/sso/login" -H 'content-type: application/json' \
  -d '{"userName":"admin","passWord":"scaleout123","source":"mes"}')
token=$(node -e 'console.log(JSON.parse(process.argv[1]).result.token)' "$login")
for p in $P1 $P2; do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$p/api/v1/sso/getUserByToken?token=$token")
  [ "$code" = 200 ] || { echo "FAIL: the session is not valid on :$p ($code)"; exit 1; }
done
H=(-H "authorization: Bearer $token" -H 'content-type: application/json')
cust=$(curl -sf -XPOST "http://127.0.0.1:$PN/api/v1/customer/add" "${H[@]}" -d '{"code":"SO-NGX","name":"负载均衡客户"}')
cid=$(node -e 'console.log(JSON.parse(process.argv[1]).result.id)' "$cust")
unit=$(curl -sf -XPOST "http://127.0.0.1:$PN/api/v1/material-unit/add" "${H[@]}" -d '{"code":"PCS-NGX","name":"件"}')
uid=$(node -e 'console.log(JSON.parse(process.argv[1]).result.id)' "$unit")
mtype=$(curl -sf "http://127.0.0.1:$PN/api/v1/material-type/page?pageSize=1" "${H[@]}")
tid=$(node -e 'const r=JSON.parse(process.argv[1]).result.list[0];console.log(r?r.id:"")' "$mtype")
if [ -z "$tid" ]; then
  mt=$(curl -sf -XPOST "http://127.0.0.1:$PN/api/v1/material-type/add" "${H[@]}" -d '{"code":"FG-NGX","name":"成品"}')
  tid=$(node -e 'console.log(JSON.parse(process.argv[1]).result.id)' "$mt")
fi
mat=$(curl -sf -XPOST "http://127.0.0.1:$PN/api/v1/material-info/add" "${H[@]}" \
  -d "{\"code\":\"M-NGX\",\"name\":\"轴承\",\"materialTypeId\":$tid,\"unitId\":$uid,\"salePrice\":\"5\"}")
mid=$(node -e 'console.log(JSON.parse(process.argv[1]).result.id)' "$mat")
order=$(curl -sf -XPOST "http://127.0.0.1:$PN/api/v1/sale-order/add" "${H[@]}" \
  -d "{\"customerId\":$cid,\"orderDate\":\"2026-10-08\",\"deliveryDate\":\"2026-11-20\",\"lines\":[{\"materialId\":$mid,\"quantity\":1}]}")
oid=$(node -e 'console.log(JSON.parse(process.argv[1]).result.id)' "$order")
printf '%%PDF-1.4\n%s\n%%%%EOF\n' "$(head -c 3000 /dev/urandom | base64 -w0)" >"$WORK/drawing.pdf"
up=$(curl -sf -XPOST "http://127.0.0.1:$PN/api/v1/attachment/upload/sale-order/$oid" \
  -H "authorization: Bearer $token" -F "file=@$WORK/drawing.pdf;type=application/pdf")
aid=$(node -e 'console.log(JSON.parse(process.argv[1]).result.id)' "$up")
want=$(sha256sum <"$WORK/drawing.pdf")
for p in $P1 $P2; do
  got=$(curl -sf "http://127.0.0.1:$p/api/v1/attachment/download/$aid" -H "authorization: Bearer $token" | sha256sum)
  [ "$got" = "$want" ] || { echo "FAIL: attachment $aid differs on :$p"; exit 1; }
done
echo "scale-out OK: sign-in through nginx valid on :$P1 and :$P2; attachment $aid read back from both ($(( $(date +%s) - t0 )) s)"
