package asktool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// exactKeys checks a JSON document before encoding/json reads it into a
// struct whose answer auto-allows something: encoding/json matches a key
// case-insensitively and keeps the last of duplicate keys, where a client
// showing the same message may read the exact key, or the first. So a
// document with a duplicate key in any object, or a key that differs only
// in case from one of read, is refused: what askbridge matched is then
// what every reader sees.
func exactKeys(doc []byte, read ...string) error {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := exactValue(dec, read); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more than one JSON value")
	}
	return nil
}

// exactValue reads one value from dec, checking the keys of every object
// in it.
func exactValue(dec *json.Decoder, read []string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			key := k.(string)
			if seen[key] {
				return fmt.Errorf("the key %q twice in one object", key)
			}
			seen[key] = true
			for _, r := range read {
				if key != r && strings.EqualFold(key, r) {
					return fmt.Errorf("the key %q, not %q", key, r)
				}
			}
			if err := exactValue(dec, read); err != nil {
				return err
			}
		}
		_, err = dec.Token() // '}'
		return err
	case json.Delim('['):
		for dec.More() {
			if err := exactValue(dec, read); err != nil {
				return err
			}
		}
		_, err = dec.Token() // ']'
		return err
	}
	return nil
}
