// module io
