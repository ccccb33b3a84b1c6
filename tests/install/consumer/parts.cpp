// The optional parts' targets bring their libraries: SQLite, libpq, libcrypto.
#include <skillmd/model.hpp>

#include <libpq-fe.h>
#include <openssl/crypto.h>
#include <sqlite3.h>

#include <iostream>

int main()
{
    std::cout << "sqlite " << sqlite3_libversion() << ", libpq " << PQlibVersion() << ", "
              << OpenSSL_version(OPENSSL_VERSION) << '\n';
    return skillmd::valid_command_name("db") ? 0 : 1;
}
