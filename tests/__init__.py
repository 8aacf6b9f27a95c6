"""The pokercert test suite: one folder per package (tests/reference, tests/vectors, ...),
contract/ for the whole-repository checks, helpers/ for what the tests share."""
