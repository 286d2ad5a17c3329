package main

// The container draws charts in process: a long-lived process pays the
// plotting library's start-up once. The Lambda bootstrap does not link it
// and runs the chartrender helper instead (chart.Exec).
import _ "github.com/miti99bot/miti99bot/internal/modules/trading/chart/draw"
