# The end-to-end cases, shared by tests/make_references.sh and tests/end_to_end/test_end_to_end.cc (which
# reads the same lines): "<case> <make_demo arguments>", one per line.
scalar_colorbar --n 20000
vector_composite --n 20000 --vector-colour
ortho_blocks --n 20000 --layout block --little-endian
