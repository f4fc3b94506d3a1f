// Package testcert makes throwaway self-signed certificates for tests
// that serve HTTPS on 127.0.0.1.
package testcert
