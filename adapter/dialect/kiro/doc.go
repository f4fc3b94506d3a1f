// Package kiro is the dialect of Kiro CLI (`kiro-cli acp`): its structured
// question, the extension request _kiro/userInput.
package kiro
