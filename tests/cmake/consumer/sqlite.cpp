#include <skillmd/storage/sources/sqlite_source.hpp>

#include <string>

int main()
{
    std::string error;
    auto store = skillmd::sqlite_store::open(":memory:", error);
    return store && store->list() ? 0 : 1;
}
