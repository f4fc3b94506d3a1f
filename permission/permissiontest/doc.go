// Package permissiontest holds what the dialects' tests share about the
// question model: the inputs real agents sent in the live tests
// (permission/testdata/recorded), the two questions all of them ask, and a
// check that decoded questions render.
package permissiontest
