// Package lostcmd is a test fault: a firmware that loses one host command.
package lostcmd
