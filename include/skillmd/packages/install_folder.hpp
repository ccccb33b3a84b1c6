// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PACKAGES_INSTALL_FOLDER_HPP
#define SKILLMD_PACKAGES_INSTALL_FOLDER_HPP

// An install folder: skill folders side by side (what a directory tier reads) and
// skills-lock.json. Every change is one transaction in `.skillmd-tx/`, held by one
// process at a time (flock):
//   1. fetch and check into work/, move the checked copies to new/NAME;
//   2. write the next lock as lock.json, then the journal (names and what happens to each);
//   3. per name: the folder in place (if any) to old/NAME, new/NAME into place;
//   4. commit: lock.json renamed over skills-lock.json;
//   5. clear the area.
// A process killed anywhere leaves either the journal with lock.json (not committed:
// the next change puts every old/NAME back and removes what came from new/) or the
// journal alone (committed: the area is only cleared). Either way the folder ends as it
// was before or as the change made it, never half of each. The journal names the area
// it was written in (device and inode), so one that was copied or planted (a cloned
// repository holding `.skillmd-tx/`) is never acted on.

#include <skillmd/packages/lock_file.hpp>
#include <skillmd/validation/name_rules.hpp>
#include <skillmd/detail/contained.hpp>
#include <skillmd/detail/read_file.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillmd::packages {

/// Called at each step of a transaction ("fetched", "journal", "out:NAME", "in:NAME",
/// "committed", "cleaned"): progress for a user, and where tests kill the process.
using step_observer = std::function<void(std::string_view)>;

namespace detail {

inline bool sync_path(std::string const& path, bool folder)
{
    skillmd::detail::unique_fd const fd(::open(path.c_str(), (folder ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC));
    return fd && ::fsync(fd.get()) == 0;
}

/// Writes `text` to `path` (replacing it) and makes it durable; "" or why not.
inline std::string write_durably(std::string const& path, std::string_view text)
{
    skillmd::detail::unique_fd const fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644));
    if (!fd) return "cannot write " + path + ": " + std::strerror(errno);
    while (!text.empty()) {
        auto const n = ::write(fd.get(), text.data(), text.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return "cannot write " + path + ": " + std::strerror(errno);
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    if (::fsync(fd.get()) != 0) return "cannot write " + path + ": " + std::strerror(errno);
    return {};
}

} // namespace detail

/** One install folder and its transactions. Reading (lock(), paths) needs nothing; a
    change needs the transaction area, which begin() takes (and recovers when a change
    was interrupted). Moves between the folder and the area go through descriptors of
    both, never through a link.
*/
class install_folder
{
public:
    explicit install_folder(std::string dir) : dir_(std::move(dir))
    {
        while (dir_.size() > 1 && dir_.ends_with('/')) dir_.pop_back();
    }
    install_folder(install_folder const&) = delete;
    install_folder& operator=(install_folder const&) = delete;
    /// Leaves the area empty, unless a journal says a change must still be undone.
    ~install_folder()
    {
        std::error_code ec;
        if (held_ && !std::filesystem::exists(area() + "/journal", ec)) clear();
    }

    std::string const& dir() const noexcept { return dir_; }
    std::string lock_path() const { return dir_ + "/" + std::string(lock_file_name); }
    std::string area() const { return dir_ + "/.skillmd-tx"; }
    std::string work() const { return area() + "/work"; }

    /// True when a change was interrupted and the next begin() will finish or undo it.
    bool interrupted() const
    {
        std::error_code ec;
        return std::filesystem::exists(area() + "/journal", ec);
    }

    /// The lock as on disk: empty when there is none yet; nothing (and `why`) when it
    /// cannot be read or is not one.
    std::optional<lock_file> lock(std::string& why) const
    {
        std::error_code ec;
        if (!std::filesystem::exists(lock_path(), ec)) return lock_file{};
        auto text = skillmd::detail::read_file(lock_path(), why, 64 * 1024 * 1024);
        if (!text) return std::nullopt;
        auto l = parse_lock(*text, why);
        if (!l) why = lock_path() + ": " + why;
        return l;
    }

    /** Takes the transaction area (creating the folder and the area as needed), finishes
        or undoes an interrupted change, and empties it. "" or why not (another process
        holds it, the folder cannot be written, or the area holds a journal this folder's
        skillmd did not write).
    */
    std::string begin()
    {
        namespace fs = std::filesystem;
        std::error_code ec;
        fs::create_directories(dir_, ec);
        if (::mkdir(area().c_str(), 0700) != 0 && errno != EEXIST) return "cannot make " + area() + ": " + std::strerror(errno);
        folder_ = skillmd::detail::unique_fd(::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        held_ = skillmd::detail::unique_fd(::open(area().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW));
        if (!folder_ || !held_) {
            held_ = {};
            return "cannot open " + area() + " (a link, or not a folder): " + std::strerror(errno);
        }
        if (::flock(held_.get(), LOCK_EX | LOCK_NB) != 0) {
            held_ = {};
            return "another skillmd is changing " + dir_ + " (it holds " + area() + ")";
        }
        if (auto const why = recover(); !why.empty()) {
            held_ = {};
            return why;
        }
        return clear();
    }

    /// True when begin() succeeded and the area is this object's.
    bool held() const noexcept { return static_cast<bool>(held_); }

    /** Steps 2 to 5 for `puts` (name, checked folder anywhere in the area) and `deletes`,
        from the lock `current` to the lock `next`. A put of a name `current` does not have
        finds no folder of that name in place (one that appeared meanwhile stops the
        change). "" or why not; on failure before the commit the folder is as it was.
    */
    std::string commit(std::vector<std::pair<std::string, std::string>> const& puts, std::vector<std::string> const& deletes,
                       lock_file const& current, lock_file const& next, step_observer const& step)
    {
        namespace fs = std::filesystem;
        auto const say = [&](std::string_view s) {
            if (step) step(s);
        };
        if (!held_) return "the install folder is not taken (begin() first)";
        if (::mkdirat(held_.get(), "new", 0700) != 0 || ::mkdirat(held_.get(), "old", 0700) != 0)
            return "cannot make the folders of " + area() + ": " + std::strerror(errno);
        std::error_code ec;
        for (auto const& [name, from] : puts) {
            fs::rename(from, area() + "/new/" + name, ec);
            if (ec) return "cannot move " + from + ": " + ec.message();
        }
        if (auto const why = detail::write_durably(area() + "/lock.json", to_json(next)); !why.empty()) return why;
        struct stat st {};
        ::fstat(held_.get(), &st);
        // The journal names the area it was written in: one copied or planted elsewhere
        // (a repository that holds `.skillmd-tx/`) is never acted on.
        std::string journal = "area " + std::to_string(st.st_dev) + " " + std::to_string(st.st_ino) + "\n";
        // Each put names the folder it moves in (device, inode: a rename keeps them), so
        // that undoing it removes that folder and never one made since under its name.
        for (auto const& [name, _] : puts) {
            struct stat in {};
            if (::fstatat(held_.get(), ("new/" + name).c_str(), &in, AT_SYMLINK_NOFOLLOW) != 0) return "cannot read " + area() + "/new/" + name;
            journal += "put " + name + " " + std::to_string(in.st_dev) + " " + std::to_string(in.st_ino) + "\n";
        }
        for (auto const& name : deletes) journal += "delete " + name + "\n";
        if (auto const why = detail::write_durably(area() + "/journal.tmp", journal); !why.empty()) return why;
        if (::renameat(held_.get(), "journal.tmp", held_.get(), "journal") != 0 || ::fsync(held_.get()) != 0)
            return "cannot write the journal in " + area();
        say("journal");

        skillmd::detail::unique_fd const olds(::openat(held_.get(), "old", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        skillmd::detail::unique_fd const news(::openat(held_.get(), "new", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        auto const undo = [&](std::string why) {
            if (auto const r = recover(); !r.empty()) why += "; then, undoing: " + r;
            return why;
        };
        if (!olds || !news) return undo("cannot open the folders of " + area());
        auto const in_place = [&](std::string const& name) {
            struct stat x {};
            return ::fstatat(folder_.get(), name.c_str(), &x, AT_SYMLINK_NOFOLLOW) == 0;
        };
        auto const move_out = [&](std::string const& name) -> std::string {
            if (!in_place(name)) return {};
            if (!current.find(name)) return dir_ + "/" + name + " appeared during the change, and skillmd did not install it: not touched";
            if (::renameat(folder_.get(), name.c_str(), olds.get(), name.c_str()) != 0)
                return "cannot move " + dir_ + "/" + name + " aside: " + std::strerror(errno);
            say("out:" + name);
            return {};
        };
        for (auto const& [name, _] : puts) {
            if (auto const why = move_out(name); !why.empty()) return undo(why);
            if (::renameat(news.get(), name.c_str(), folder_.get(), name.c_str()) != 0)
                return undo("cannot move " + name + " into " + dir_ + ": " + std::strerror(errno));
            say("in:" + name);
        }
        for (auto const& name : deletes)
            if (auto const why = move_out(name); !why.empty()) return undo(why);
        if (::renameat(held_.get(), "lock.json", folder_.get(), std::string(lock_file_name).c_str()) != 0)
            return undo("cannot replace " + lock_path() + ": " + std::strerror(errno));
        ::fsync(folder_.get());
        say("committed");
        auto const why = clear();
        say("cleaned");
        return why;
    }

    /// Undoes (not committed) or finishes (committed) an interrupted change. "" or why not.
    std::string recover()
    {
        namespace fs = std::filesystem;
        std::error_code ec;
        std::string const journal_path = area() + "/journal";
        if (!held_ || !fs::exists(fs::symlink_status(journal_path, ec))) return {};
        std::string why;
        auto const journal = skillmd::detail::read_file(journal_path, why, 16 * 1024 * 1024);
        if (!journal) return "cannot read " + journal_path + ": " + why;
        struct stat st {};
        ::fstat(held_.get(), &st);
        std::string const stamp = "area " + std::to_string(st.st_dev) + " " + std::to_string(st.st_ino) + "\n";
        if (!journal->starts_with(stamp) || fs::is_symlink(journal_path, ec))
            return journal_path + " was not written by skillmd in this folder (copied, or planted): nothing done; "
                                  "remove " + area() + " by hand once you have looked at it";
        bool const committed = ::faccessat(held_.get(), "lock.json", F_OK, AT_SYMLINK_NOFOLLOW) != 0;
        if (!committed) {
            skillmd::detail::unique_fd const olds(::openat(held_.get(), "old", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
            skillmd::detail::unique_fd const news(::openat(held_.get(), "new", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
            auto const folder_at = [](int at, std::string const& name) {
                struct stat x {};
                return at >= 0 && ::fstatat(at, name.c_str(), &x, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(x.st_mode);
            };
            std::size_t pos = stamp.size();
            while (pos < journal->size()) {
                auto const nl = journal->find('\n', pos);
                std::string const line = journal->substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
                pos = nl == std::string::npos ? journal->size() : nl + 1;
                auto const space = line.find(' ');
                if (space == std::string::npos) continue;
                std::string const op = line.substr(0, space);
                std::string name = line.substr(space + 1), moved_in;
                if (auto const more = name.find(' '); more != std::string::npos) {
                    moved_in = name.substr(more + 1);
                    name.resize(more);
                }
                if (!broken_name_rules(name).empty()) continue;
                bool const has_old = folder_at(olds ? olds.get() : -1, name);
                bool const has_new = folder_at(news ? news.get() : -1, name);
                struct stat x {};
                bool const has_place = ::fstatat(folder_.get(), name.c_str(), &x, AT_SYMLINK_NOFOLLOW) == 0;
                // In place is what came from new/ when the old copy is aside, or when
                // there was none and new/ no longer holds it.
                if (op == "put" && has_place && (has_old || !has_new)) {
                    if (moved_in != std::to_string(x.st_dev) + " " + std::to_string(x.st_ino))
                        return dir_ + "/" + name + " is not the folder the interrupted change put there (made since?): "
                                                   "recovery stopped; move it away and run again";
                    fs::remove_all(dir_ + "/" + name, ec);
                    if (ec) return "cannot remove " + dir_ + "/" + name + ": " + ec.message();
                }
                if (has_old && ::renameat(olds.get(), name.c_str(), folder_.get(), name.c_str()) != 0)
                    return "cannot put " + dir_ + "/" + name + " back: " + std::strerror(errno);
            }
            ::fsync(folder_.get());
        }
        if (::unlinkat(held_.get(), "journal", 0) != 0) return "cannot remove " + journal_path + ": " + std::strerror(errno);
        return {};
    }

private:
    std::string clear()
    {
        namespace fs = std::filesystem;
        std::error_code ec;
        for (auto const& e : fs::directory_iterator(area(), ec)) {
            fs::remove_all(e.path(), ec);
            if (ec) return "cannot clear " + area() + ": " + ec.message();
        }
        return ec ? "cannot clear " + area() + ": " + ec.message() : std::string();
    }

    std::string dir_;
    skillmd::detail::unique_fd folder_;
    skillmd::detail::unique_fd held_;
};

} // namespace skillmd::packages

#endif
