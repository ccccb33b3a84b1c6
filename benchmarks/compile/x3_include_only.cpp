// The yardstick: what including Spirit X3 costs, with nothing of skillmd.
#include <boost/spirit/home/x3.hpp>

int main() {}
