package toolinfo

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTitle(t *testing.T) {
	assert.Equal(t, "Database", Title("Database", 0, 1, 1))
	assert.Equal(t, "Database (2/3)", Title("Database", 1, 3, 0))
	assert.Equal(t, "Round 2 · Database", Title("Database", 0, 1, 2))
	assert.Equal(t, "A header that is much longer …", Title("A header that is much longer than thirty", 0, 1, 1))
}

func TestContent(t *testing.T) {
	assert.Equal(t, "Which database?\n  - Postgres: relational\n  - SQLite", Content("Which database?", []Option{{"Postgres", "relational"}, {"SQLite", ""}}))
	assert.Equal(t, "Postgres - relational", OptionName(Option{"Postgres", "relational"}))
	assert.Equal(t, "SQLite", OptionName(Option{"SQLite", ""}))
	assert.Equal(t, "Database: Postgres", SummaryLine("Database", "Postgres"))
}
