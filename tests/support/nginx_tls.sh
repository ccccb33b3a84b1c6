# Sourced by the tests that put nginx with TLS in front of something on loopback
# (tests/mcp/remote_fleet.sh, tests/packages/round_trip.sh).
#
# tls_ca DIR: a private CA (DIR/ca.pem) and a certificate it signed for 127.0.0.1 and
# localhost (DIR/server.pem, DIR/server.key; DIR/server.csr to sign again).
tls_ca() {
  local t=$1
  mkdir -p "$t"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$t/ca.key" -out "$t/ca.pem" -days 2 -subj "/CN=skillmd test CA" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -keyout "$t/server.key" -out "$t/server.csr" -subj "/CN=127.0.0.1" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$t/ext.cnf"
  openssl x509 -req -in "$t/server.csr" -CA "$t/ca.pem" -CAkey "$t/ca.key" -CAcreateserial -out "$t/server.pem" -days 2 \
    -extfile "$t/ext.cnf" 2>/dev/null
}

# nginx_tls DIR CERTS SERVER_BODY: nginx on a free loopback port with TLS (CERTS from
# tls_ca), its config in DIR/nginx.conf, SERVER_BODY the lines of its server block (the
# listen and certificate lines are added). Sets nginx_port and nginx_pid; returns 1
# (start log in DIR/start.log) when no port of five worked.
nginx_tls() {
  local dir=$1 t=$2 body=$3 port
  mkdir -p "$dir/logs"
  nginx_port="" nginx_pid=""
  for port in $(shuf -i 20000-60000 -n 5); do
    cat >"$dir/nginx.conf" <<CONF
daemon off; master_process off; worker_processes 1;
error_log $dir/logs/error.log; pid $dir/nginx.pid;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path $dir/body; proxy_temp_path $dir/proxy; fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi; scgi_temp_path $dir/scgi;
  server {
    listen 127.0.0.1:$port ssl;
    ssl_certificate $t/server.pem; ssl_certificate_key $t/server.key;
$body
  }
}
CONF
    nginx -p "$dir" -c "$dir/nginx.conf" 2>"$dir/start.log" &
    nginx_pid=$!
    sleep 0.5
    if kill -0 "$nginx_pid" 2>/dev/null; then
      nginx_port=$port
      return 0
    fi
  done
  return 1
}
