// Package benchhub starts `askbridge hub` for the benchmarks as a user
// runs it, outside the benchmark's process tree, and stops it.
package benchhub
