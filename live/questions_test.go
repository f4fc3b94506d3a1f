//go:build live

package live

// The question tool inputs the fake model sends. Claude and Qwen read
// multiSelect; OpenCode reads multiple.

const dbQuestion = `{"questions":[{"question":"Which database should the service use?","header":"Database","multiSelect":false,"options":[{"label":"Postgres","description":"relational, the default"},{"label":"SQLite","description":"embedded file"}]}]}`

const langQuestion = `{"questions":[{"question":"Which languages should the service support?","header":"Languages","multiSelect":true,"options":[{"label":"Go","description":"fast builds"},{"label":"Rust","description":"no GC"},{"label":"Python","description":"scripts"}]}]}`

// twoQuestions is one call asking a single-select and a multi-select.
const twoQuestions = `{"questions":[{"question":"Which database should the service use?","header":"Database","multiSelect":false,"options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}]},{"question":"Which languages should the service support?","header":"Languages","multiSelect":true,"options":[{"label":"Go","description":"fast builds"},{"label":"Rust","description":"no GC"},{"label":"Python","description":"scripts"}]}]}`

const openCodeQuestions = `{"questions":[{"question":"Which database should the service use?","header":"Database","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}]},{"question":"Which languages should the service support?","header":"Languages","multiple":true,"options":[{"label":"Go","description":"fast builds"},{"label":"Rust","description":"no GC"},{"label":"Python","description":"scripts"}]}]}`
