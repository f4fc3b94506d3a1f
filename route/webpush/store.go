package webpush

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	wp "github.com/SherClockHolmes/webpush-go"
)

// Subscription is a browser's push subscription, as PushSubscription's
// toJSON gives it.
type Subscription = wp.Subscription

// Store keeps each device's subscription, by device id, in a file (0600).
type Store struct {
	path string

	mu   sync.Mutex
	subs map[string]Subscription
}

// OpenStore reads the subscriptions at path (none yet when it is missing).
func OpenStore(path string) (*Store, error) {
	s := &Store{path: path, subs: map[string]Subscription{}}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return s, nil
	case err != nil:
		return nil, fmt.Errorf("web push subscriptions: %w", err)
	}
	if err := json.Unmarshal(b, &s.subs); err != nil {
		return nil, fmt.Errorf("web push subscriptions %s: %v", path, err)
	}
	return s, nil
}

// Set keeps sub as device's (replacing any before).
func (s *Store) Set(device string, sub Subscription) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.subs[device] = sub
	return s.save()
}

// Remove drops device's subscription, if any: push turned off on it, or
// the device revoked.
func (s *Store) Remove(device string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.subs[device]; !ok {
		return nil
	}
	delete(s.subs, device)
	return s.save()
}

// Has says whether device has a subscription.
func (s *Store) Has(device string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.subs[device]
	return ok
}

// Keep drops every subscription of a device not in paired, and returns
// the rest.
func (s *Store) Keep(paired map[string]bool) map[string]Subscription {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]Subscription{}
	dropped := false
	for id, sub := range s.subs {
		if !paired[id] {
			delete(s.subs, id)
			dropped = true
			continue
		}
		out[id] = sub
	}
	if dropped {
		s.save()
	}
	return out
}

// save writes the file; s.mu is held.
func (s *Store) save() error {
	if s.path == "" {
		return nil
	}
	b, err := json.Marshal(s.subs)
	if err != nil {
		return err
	}
	return writeFile(s.path, b)
}
