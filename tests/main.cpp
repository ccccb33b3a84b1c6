// Copyright (c) 2026 The skillmd authors.
// Distributed under the Boost Software License, Version 1.0. (See LICENSE.)
#define BOOST_TEST_MODULE skillmd
#include <boost/test/unit_test.hpp>
