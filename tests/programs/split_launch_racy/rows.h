#pragma once
__global__ void fill_row(int *row);
