module toolgate

go 1.26.8

require (
	github.com/go-json-experiment/json v1.27.2
	github.com/goccy/go-yaml v1.19.2
)
