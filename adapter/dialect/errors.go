package dialect

import (
	"encoding/json"
	"errors"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// InvalidQuestions is the invalid-params error listing every violation.
func InvalidQuestions(err error) *relay.Error {
	var e *relay.Error
	if errors.As(err, &e) {
		return e
	}
	var ve *permission.ValidationError
	if errors.As(err, &ve) {
		list := make([]string, 0, len(ve.Violations))
		for _, v := range ve.Violations {
			list = append(list, v.String())
		}
		return relay.InvalidParams("askbridge: invalid questions: "+err.Error(), violations{list})
	}
	return relay.InvalidParams("askbridge: invalid questions: "+err.Error(), nil)
}

// violations is the data of an invalid-questions error.
type violations struct {
	Violations []string `json:"violations"`
}

// ErrNoSession is a dialect's error for a question that names no session
// when the client has not opened one yet.
func ErrNoSession() *relay.Error {
	return relay.Internal("askbridge: no session to ask in yet: the client has not opened one", nil)
}

// MustJSON encodes a value askbridge itself built; it cannot fail for the
// types it is used with.
func MustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
