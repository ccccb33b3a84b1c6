// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#ifndef SKILLMD_TRIGGERS_HPP
#define SKILLMD_TRIGGERS_HPP

// Trigger phrases: one-pass matching of every phrase (triggers/matcher.hpp) and the
// triggers of a snapshot's skills (triggers/trigger_index.hpp). No X3.

#include <skillmd/triggers/matcher.hpp>
#include <skillmd/triggers/trigger_index.hpp>

#endif
