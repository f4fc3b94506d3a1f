package permissiontest

import "github.com/askbridge/askbridge/permission"

// InProcess is who answers a set in a test that plays a front end in
// process: the editor's route, which needs no credential (permission.Gate),
// the history naming source (the desk when empty).
func InProcess(source permission.Source) permission.By {
	return permission.By{Route: permission.RouteEditor, Source: source}
}
