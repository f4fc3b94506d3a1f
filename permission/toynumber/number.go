package toynumber

import (
	"errors"
	"strconv"

	"github.com/askbridge/askbridge/permission"
)

// Number is a question whose answer is a number the user types (its
// options, if any, are the usual answers: "Skip", "As before").
var Number = permission.RegisterKind(permission.AnswerKind{Name: "number", Input: "number", Hint: "a number"},
	func(text string) error {
		if _, err := strconv.ParseFloat(text, 64); err != nil {
			return errors.New("try 12 or 0.5")
		}
		return nil
	})
