"""The fast hold'em table: whole units of hold'em with the built-in bots played in
compiled code, with the reference path's very cards, decisions and rows
(:mod:`.layout`)."""
