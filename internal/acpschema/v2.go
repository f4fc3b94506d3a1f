package acpschema

import (
	_ "embed"
	"sync"
)

// schemaV2JSON is schema/v2/schema.json of the npm package
// @agentclientprotocol/sdk 2.4.0 (ACP v2, Preview), committed as the v1
// schema is (see SCHEMA.md).
//
//go:embed acp-v2.schema.json
var schemaV2JSON []byte

// ACPv2 is the embedded official ACP v2 schema, parsed once: for the
// exchanges whose initialize agreed on protocol version 2.
var ACPv2 = sync.OnceValues(func() (*Schema, error) { return Parse(schemaV2JSON) })
