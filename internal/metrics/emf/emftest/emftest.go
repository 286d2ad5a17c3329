// Package emftest checks a log line against the CloudWatch Embedded Metric
// Format specification (docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/
// CloudWatch_Embedded_Metric_Format_Specification.html): the rules CloudWatch
// Logs applies before it extracts a metric, so that a test fails where
// CloudWatch would silently drop the line.
package emftest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// units are the specification's Unit values.
var units = []string{"Seconds", "Microseconds", "Milliseconds", "Bytes", "Kilobytes", "Megabytes", "Gigabytes",
	"Terabytes", "Bits", "Kilobits", "Megabits", "Gigabits", "Terabits", "Percent", "Count", "Bytes/Second",
	"Kilobytes/Second", "Megabytes/Second", "Gigabytes/Second", "Terabytes/Second", "Bits/Second",
	"Kilobits/Second", "Megabits/Second", "Gigabits/Second", "Terabits/Second", "Count/Second", "None"}

// Check reports why line is not an EMF document, or nil. It returns the
// metric values it found, by name.
func Check(line []byte) (map[string][]float64, error) {
	var root map[string]json.RawMessage
	if err := json.Unmarshal(line, &root); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	rawAWS, ok := root["_aws"]
	if !ok {
		return nil, errors.New("no _aws member")
	}
	var meta struct {
		Timestamp         *json.Number
		CloudWatchMetrics *[]struct {
			Namespace  *string
			Dimensions *[][]string
			Metrics    *[]struct {
				Name              *string
				Unit              *string
				StorageResolution *int
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(rawAWS))
	dec.UseNumber()
	if err := dec.Decode(&meta); err != nil {
		return nil, fmt.Errorf("_aws: %w", err)
	}
	if meta.Timestamp == nil {
		return nil, errors.New("_aws.Timestamp missing")
	}
	if ms, err := meta.Timestamp.Int64(); err != nil || ms < 1e12 {
		return nil, fmt.Errorf("_aws.Timestamp %v is not epoch milliseconds", *meta.Timestamp)
	}
	if meta.CloudWatchMetrics == nil || len(*meta.CloudWatchMetrics) == 0 {
		return nil, errors.New("_aws.CloudWatchMetrics missing or empty")
	}
	values := map[string][]float64{}
	for i, d := range *meta.CloudWatchMetrics {
		if d.Namespace == nil || *d.Namespace == "" || len(*d.Namespace) > 1024 {
			return nil, fmt.Errorf("directive %d: Namespace missing or not 1..1024 characters", i)
		}
		if d.Dimensions == nil {
			return nil, fmt.Errorf("directive %d: Dimensions missing", i)
		}
		for _, set := range *d.Dimensions {
			if len(set) > 30 {
				return nil, fmt.Errorf("directive %d: a dimension set of %d, at most 30", i, len(set))
			}
			for _, k := range set {
				var v string
				if err := json.Unmarshal(root[k], &v); err != nil {
					return nil, fmt.Errorf("directive %d: dimension %q is not a string member of the root", i, k)
				}
			}
		}
		if d.Metrics == nil || len(*d.Metrics) > 100 {
			return nil, fmt.Errorf("directive %d: Metrics missing or more than 100", i)
		}
		for _, m := range *d.Metrics {
			if m.Name == nil || *m.Name == "" || len(*m.Name) > 1024 {
				return nil, fmt.Errorf("directive %d: a metric without a 1..1024-character Name", i)
			}
			if m.Unit != nil && !slices.Contains(units, *m.Unit) {
				return nil, fmt.Errorf("metric %s: Unit %q is not one of the specification's", *m.Name, *m.Unit)
			}
			if m.StorageResolution != nil && *m.StorageResolution != 1 && *m.StorageResolution != 60 {
				return nil, fmt.Errorf("metric %s: StorageResolution %d", *m.Name, *m.StorageResolution)
			}
			v, err := numbers(root[*m.Name])
			if err != nil {
				return nil, fmt.Errorf("metric %s: %w", *m.Name, err)
			}
			values[*m.Name] = v
		}
	}
	return values, nil
}

// numbers reads a target member: a number or an array of at most 100.
func numbers(raw json.RawMessage) ([]float64, error) {
	if raw == nil {
		return nil, errors.New("no member of that name in the root")
	}
	var one float64
	if json.Unmarshal(raw, &one) == nil {
		return []float64{one}, nil
	}
	var many []float64
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, errors.New("neither a number nor an array of numbers")
	}
	if len(many) > 100 {
		return nil, fmt.Errorf("%d values, at most 100", len(many))
	}
	return many, nil
}
