module github.com/askbridge/askbridge

go 1.26.0

require (
	github.com/google/jsonschema-go v0.4.3
	github.com/sourcegraph/jsonrpc2 v0.2.3
	github.com/stretchr/testify v1.12.1
	golang.org/x/term v0.47.0
	golang.org/x/tools v0.52.0
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
