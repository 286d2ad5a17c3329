module github.com/miti99bot/miti99bot

go 1.26

require github.com/anishathalye/porcupine v1.3.1
