// Package acpschema checks ACP messages against the official ACP JSON
// schema, by method: a request's params, a notification's params, a
// response's result by the method of the request it answers, an error as
// the schema's Error. It also reports members the schema does not declare
// (ACP leaves its objects open, so a misspelt optional field would pass).
//
// It is test support: the conformance fixtures and the end-to-end tests of
// cmd/askbridge use it to check every message askbridge writes itself. No
// program imports it, so the schema (embedded, see SCHEMA.md) is never in
// the askbridge binary.
package acpschema
