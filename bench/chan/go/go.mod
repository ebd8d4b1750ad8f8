module memcoro/bench/chan

go 1.22
