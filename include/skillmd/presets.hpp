// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_PRESETS_HPP
#define SKILLMD_PRESETS_HPP

// The presets: each system skillmd reproduces as one basic_system type. They use the
// X3 parser. The koshi preset (presets/koshi.hpp, SQLite) and the fleet
// preset (presets/fleet.hpp, libpq) are left out.

#include <skillmd/presets/systems.hpp>
#include <skillmd/presets/registries.hpp>
#include <skillmd/presets/database_tools.hpp>

#endif
