// skillmd::net on its own: an HTTP server listens on a free port, stops, and run() returns.
#include <skillmd/net.hpp>

#include <iostream>

int main()
{
    namespace net = skillmd::net;
    net::http_server server({}, [](net::http_request const&) { return net::http_response{}; });
    auto const port = server.start();
    server.stop();
    server.run();
    std::cout << "listened on 127.0.0.1:" << port << '\n';
    return port != 0 ? 0 : 1;
}
