// skillmd::packages from an installed tree: an archive packed and unpacked again, and a
// lock written and read back.
#include <skillmd/packages.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>

int main()
{
    namespace pk = skillmd::packages;
    std::string why;
    auto const bytes = pk::pack_archive({{"SKILL.md", "---\nname: x\ndescription: y\n---\n", false}}, pk::archive_format::tar_gz, why);
    std::string dir = (std::filesystem::temp_directory_path() / "skillmd-consumer-XXXXXX").string();
    if (bytes.empty() || !::mkdtemp(dir.data())) return 1;
    bool const unpacked = pk::unpack_archive(bytes, dir + "/x").empty() && std::filesystem::exists(dir + "/x/SKILL.md");
    std::filesystem::remove_all(dir);
    pk::lock_file lock;
    lock.put({"x", {"folder", "/x", "", ""}, "", "", "", "", {}});
    auto const back = pk::parse_lock(pk::to_json(lock), why);
    std::cout << "packed " << bytes.size() << " bytes; lock with " << (back ? back->skills.size() : 0) << " skill\n";
    return unpacked && back && back->skills.size() == 1 ? 0 : 1;
}
